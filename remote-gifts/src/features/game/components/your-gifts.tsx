/** The gifts this browser won or redeemed, newest first, each a link to its page. Nothing until there is one. */
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { VisitorGift } from 'shared/api/contract';
import { formatDate, formatPrizeValue } from 'shared/format';
import { Icon } from 'shared/browser/icons/icon';
import { YOUR_GIFTS_ANCHOR } from 'shared/browser/api/visitor-gifts-hint';
import { GIFT_STATUS_LABELS } from '../../../components/gift-status-labels';
import { useInBrowser } from '../../../hooks/use-in-browser';
import { useVisitorGifts } from '../api/get-visitor-gifts';
import './your-gifts.css';

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
  const { hash } = useLocation();
  const section = useRef<HTMLElement>(null);
  const shown = gifts !== undefined && gifts.length > 0;

  // The header's "Your gifts" link: the list is the page's point once it is there.
  useEffect(() => {
    if (!shown || hash !== `#${YOUR_GIFTS_ANCHOR}`) return;
    section.current?.scrollIntoView?.({ block: 'start' });
    section.current?.focus({ preventScroll: true });
  }, [shown, hash]);

  if (!shown) return null;
  return (
    <section
      ref={section}
      id={YOUR_GIFTS_ANCHOR}
      className="p-your-gifts"
      aria-labelledby="p-your-gifts-title"
      tabIndex={-1}
    >
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
                {GIFT_STATUS_LABELS[gift.status]}
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
