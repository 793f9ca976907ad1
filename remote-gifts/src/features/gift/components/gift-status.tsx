import type { GiftStatus as Status, GiftView } from 'shared/api/contract';
import { formatDate } from 'shared/format';
import { GIFT_STATUS_LABELS } from '../../../components/gift-status-labels';

function Day({ timestamp }: { timestamp: string }) {
  return <time dateTime={timestamp}>{formatDate(timestamp)}</time>;
}

/**
 * Where the gift stands. `status` may be newer than the gift that was loaded (a redeem attempt
 * found it redeemed or expired), and then the dates the page has may not say more.
 */
export function GiftStatus({ gift, status }: { gift: GiftView; status: Status }) {
  return (
    // A live region: a status learned from a failed redeem is announced, not only drawn.
    <div className="p-gift__status" data-status={status} role="status">
      <p className="p-gift__badge">{GIFT_STATUS_LABELS[status]}</p>
      <p className="p-gift__when">
        {status === 'available' && (
          <>
            Expires on <Day timestamp={gift.expiresAt} />
          </>
        )}
        {status === 'redeemed' &&
          (gift.redeemedAt ? (
            <>
              Redeemed on <Day timestamp={gift.redeemedAt} />. It cannot be redeemed again.
            </>
          ) : (
            'This gift has already been redeemed. It cannot be redeemed again.'
          ))}
        {status === 'expired' &&
          (gift.status === 'expired' ? (
            <>
              Expired on <Day timestamp={gift.expiresAt} />. It can no longer be redeemed.
            </>
          ) : (
            'This gift has expired. It can no longer be redeemed.'
          ))}
      </p>
    </div>
  );
}
