/**
 * An expired gift: a state of the gift, not an error. The page says plainly that it expired and
 * on which day, what the gift was, and gives the way home. Nothing can be done with it here.
 */
import { Link } from 'react-router-dom';
import type { GiftView } from 'shared/api/contract';
import { Icon } from 'shared/browser/icons/icon';
import { GiftStatus } from './gift-status';

export const GIFT_EXPIRED_TITLE = 'This gift has expired';

export function GiftExpired({ gift }: { gift: GiftView }) {
  const { prize } = gift;
  return (
    <article className="p-gift" aria-labelledby="p-gift-title" data-status="expired">
      <h1 id="p-gift-title" className="p-gift__heading">
        <span className="p-gift__title">{GIFT_EXPIRED_TITLE}</span>
      </h1>
      <div className="p-gift__card">
        <span className="p-gift__prize-icon">
          <Icon icon={prize.icon} size="2.25rem" />
        </span>
        <p className="p-gift__description">It was a gift of {prize.name}.</p>
        {/* "Expired on {day}. It can no longer be redeemed.", the day as the app writes dates. */}
        <GiftStatus gift={gift} status="expired" />
        <div className="p-gift__actions">
          <Link className="p-button p-button--primary" to="/">
            Back to home
          </Link>
        </div>
      </div>
    </article>
  );
}
