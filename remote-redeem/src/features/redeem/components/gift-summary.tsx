import type { GiftView } from 'shared/api/contract';
import { formatDate } from 'shared/format';
import { prizeValueText } from '../prize-value';
import { GiftIcon } from './gift-icon';

/** What is being redeemed: the prize, its value and how long the gift lasts. */
export function GiftSummary({ gift }: { gift: GiftView }) {
  const { prize } = gift;
  const value = prizeValueText(prize);
  return (
    <div className="p-redeem__gift">
      <GiftIcon icon={prize.icon} />
      <div className="p-redeem__gift-text">
        <h2 className="p-redeem__prize">{prize.name}</h2>
        {value && <p className="p-redeem__value">{value}</p>}
        {prize.description && <p className="p-redeem__description">{prize.description}</p>}
        <p className="p-redeem__gift-expiry">
          Gift valid until <time dateTime={gift.expiresAt}>{formatDate(gift.expiresAt)}</time>
        </p>
      </div>
    </div>
  );
}
