import { Link } from 'react-router-dom';
import type { GiftView } from 'shared/api/contract';
import { ScreenHeading } from './screen-heading';

interface SupersededScreenProps {
  gift: GiftView;
  takeFocus: boolean;
}

/** Another session won the race for this gift: a gift is redeemed exactly once. */
export function SupersededScreen({ gift, takeFocus }: SupersededScreenProps) {
  return (
    <section className="p-redeem">
      <ScreenHeading takeFocus={takeFocus}>This gift was redeemed in another tab or session</ScreenHeading>
      <p className="p-redeem__text">
        A gift can be redeemed only once. If that was you, the voucher code is shown in the browser where you redeemed
        it.
      </p>
      <div className="p-redeem__actions">
        <Link className="p-button" to={`/gifts/${gift.giftId}`}>
          See the gift
        </Link>
      </div>
    </section>
  );
}
