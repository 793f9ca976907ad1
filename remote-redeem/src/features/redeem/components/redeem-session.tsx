/** One redeem session: loads it and shows the screen for its state, keeping up as it changes. */
import { useCallback, useState } from 'react';
import type { CompleteRedeemBody, CompleteRedeemResult } from 'shared/api/contract';
import type { HttpError } from 'shared/http-error';
import { useRedeem } from '../api/get-redeem';
import { useDocumentTitle } from 'shared/use-document-title';
import { completedView } from '../redeem-view';
import { CompletedScreen } from './completed-screen';
import { ExpiredScreen } from './expired-screen';
import { LoadError } from './load-error';
import { OpenScreen } from './open-screen';
import { RedeemSkeleton } from './redeem-skeleton';
import { SupersededScreen } from './superseded-screen';
import './redeem-screen.css';

export function RedeemSession({ redeemId }: { redeemId: string }) {
  const { state, retry, replace, refresh } = useRedeem(redeemId);
  // Whether the screen changed under the visitor's hands, rather than on arrival.
  const [changedHere, setChangedHere] = useState(false);
  const redeem = state.status === 'ready' ? state.redeem : undefined;
  useDocumentTitle(redeem?.status === 'completed' ? (redeem.voucherCode ? 'Your voucher' : 'Gift redeemed') : 'Redeem your gift');

  const onCompleted = useCallback(
    (result: CompleteRedeemResult, body: CompleteRedeemBody) => {
      if (!redeem) return;
      replace(completedView(redeem, result, body.email));
      setChangedHere(true);
    },
    [redeem, replace],
  );

  // 409 or 410: the session's own state now says why (superseded, completed elsewhere, expired).
  const onClosed = useCallback(
    async (error: HttpError) => {
      const latest = await refresh();
      if (latest && latest.status !== 'open') {
        setChangedHere(true);
        return true;
      }
      if (error.statusCode !== 410 || !redeem) return false;
      replace({ ...redeem, status: 'expired' });
      setChangedHere(true);
      return true;
    },
    [redeem, refresh, replace],
  );

  if (state.status === 'missing') throw state.error;
  if (state.status === 'loading') return <RedeemSkeleton />;
  if (state.status === 'failed') return <LoadError message={state.message} onRetry={retry} />;

  const view = state.redeem;
  switch (view.status) {
    case 'open':
      return <OpenScreen redeem={view} onCompleted={onCompleted} onClosed={onClosed} />;
    case 'completed':
      return <CompletedScreen redeem={view} takeFocus={changedHere} />;
    case 'expired':
      return <ExpiredScreen gift={view.gift} takeFocus={changedHere} />;
    case 'superseded':
      return <SupersededScreen gift={view.gift} takeFocus={changedHere} />;
  }
}
