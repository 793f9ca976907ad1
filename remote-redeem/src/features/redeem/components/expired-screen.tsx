import { Link } from 'react-router-dom';
import type { GiftView } from 'shared/api/contract';
import { ScreenHeading } from './screen-heading';

interface ExpiredScreenProps {
  gift: GiftView;
  takeFocus: boolean;
}

/** The session ran out of time; the gift itself may still be waiting. */
export function ExpiredScreen({ gift, takeFocus }: ExpiredScreenProps) {
  return (
    <section className="p-redeem">
      <ScreenHeading takeFocus={takeFocus}>This redeem page has expired</ScreenHeading>
      <p className="p-redeem__text">For your security, a redeem page only works for a short time.</p>
      {gift.status === 'available' && (
        <>
          <p className="p-redeem__text">Your gift has not been redeemed: go back to it to start again.</p>
          <div className="p-redeem__actions">
            <Link className="p-button p-button--primary" to={`/gifts/${gift.giftId}`}>
              Back to your gift
            </Link>
          </div>
        </>
      )}
      {gift.status === 'redeemed' && <p className="p-redeem__text">This gift has already been redeemed.</p>}
      {gift.status === 'expired' && <p className="p-redeem__text">The gift itself has expired too.</p>}
    </section>
  );
}
