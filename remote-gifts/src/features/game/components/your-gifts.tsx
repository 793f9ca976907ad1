/** The gifts this browser won or redeemed, newest first, each a link to its page. Nothing until there is one. */
import { Link } from 'react-router-dom';
import type { GiftStatus, VisitorGift } from 'shared/api/contract';
import { formatDate, formatPrizeValue } from 'shared/format';
import { Icon } from 'shared/browser/icons/icon';
import { useInBrowser } from '../../../hooks/use-in-browser';
import { useVisitorGifts } from '../api/get-visitor-gifts';
import './your-gifts.css';

/** Where a gift's id goes in a page address: the id the host links to. */
export const YOUR_GIFTS_ID = 'your-gifts';

const STATUS: Record<GiftStatus, string> = {
  available: 'Ready to redeem',
  redeemed: 'Redeemed',
  expired: 'Expired',
};

function When({ gift }: { gift: VisitorGift }) {
  if (gift.status === 'available') return <>Redeem by {formatDate(gift.expiresAt)}</>;
  if (gift.status === 'expired') return <>Expired on {formatDate(gift.expiresAt)}</>;
  return gift.redeemedAt ? <>Redeemed on {formatDate(gift.redeemedAt)}</> : null;
}

export function YourGifts() {
  return useInBrowser() ? <YourGiftsList /> : null;
}

function YourGiftsList() {
  const { data: gifts } = useVisitorGifts();
  if (!gifts || gifts.length === 0) return null;
  return (
    <section id={YOUR_GIFTS_ID} className="p-your-gifts" aria-labelledby="p-your-gifts-title" tabIndex={-1}>
      <h2 id="p-your-gifts-title" className="p-your-gifts__title">
        Your gifts
      </h2>
      <ul className="p-your-gifts__list">
        {gifts.map((gift) => (
          <li key={gift.giftId}>
            <Link className="p-your-gifts__item" to={`/gifts/${encodeURIComponent(gift.giftId)}`}>
              <Icon icon={gift.prize.icon} size="2rem" className="p-your-gifts__icon" />
              <span className="p-your-gifts__name">{gift.prize.name}</span>
              <span className="p-your-gifts__value">{formatPrizeValue(gift.prize.value)}</span>
              <span className="p-your-gifts__status" data-status={gift.status}>
                {STATUS[gift.status]}
              </span>
              <span className="p-your-gifts__when">
                <When gift={gift} />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
