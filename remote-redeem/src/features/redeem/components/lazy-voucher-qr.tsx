/**
 * The QR code, loaded only when a voucher is shown: the encoder stays out of the redeem form's
 * download. If its chunk cannot load, the code in letters is still there: nothing else breaks.
 */
import { Component, lazy, Suspense, type ReactNode } from 'react';

const VoucherQr = lazy(() => import('./voucher-qr').then((module) => ({ default: module.VoucherQr })));

class LeaveOutOnError extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.warn('[redeem] the QR code could not be shown', error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

export function LazyVoucherQr({ code }: { code: string }) {
  return (
    <LeaveOutOnError>
      <Suspense fallback={<span className="p-redeem__qr p-redeem__qr--loading" aria-hidden="true" />}>
        <VoucherQr code={code} />
      </Suspense>
    </LeaveOutOnError>
  );
}
