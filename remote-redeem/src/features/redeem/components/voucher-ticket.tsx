import type { RedeemView } from 'shared/api/contract';
import { formatDate, formatTime } from 'shared/format';
import { prizeValueText } from '../prize-value';
import { GiftIcon } from './gift-icon';
import { LazyVoucherQr } from './lazy-voucher-qr';
import { VoucherCode } from './voucher-code';

interface VoucherTicketProps {
  redeem: RedeemView;
  code: string;
}

/** What is shown at the till, and what prints: the prize, the code in letters and as a QR code, until when. */
export function VoucherTicket({ redeem, code }: VoucherTicketProps) {
  const { prize } = redeem.gift;
  const value = prizeValueText(prize);
  const validUntil = redeem.voucherValidUntil;
  return (
    <div className="p-redeem__ticket">
      <div className="p-redeem__ticket-prize">
        <GiftIcon icon={prize.icon} />
        <div>
          <h2 className="p-redeem__prize">{prize.name}</h2>
          {value && <p className="p-redeem__ticket-value">{value}</p>}
        </div>
      </div>
      <VoucherCode code={code} />
      <LazyVoucherQr code={code} />
      {validUntil && (
        <p className="p-redeem__validity">
          Valid until{' '}
          <time dateTime={validUntil}>
            {formatDate(validUntil)}, {formatTime(validUntil)}
          </time>
        </p>
      )}
    </div>
  );
}
