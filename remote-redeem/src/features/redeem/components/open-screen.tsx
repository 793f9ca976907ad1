import type { RedeemView } from 'shared/api/contract';
import type { CompleteHandlers } from '../api/complete-redeem';
import { formatTime } from 'shared/format';
import { GiftSummary } from './gift-summary';
import { RedeemForm } from './redeem-form';
import { ScreenHeading } from './screen-heading';

interface OpenScreenProps extends CompleteHandlers {
  redeem: RedeemView;
}

export function OpenScreen({ redeem, onCompleted, onClosed }: OpenScreenProps) {
  return (
    <section className="p-redeem">
      <header className="p-redeem__head">
        <ScreenHeading>Redeem your gift</ScreenHeading>
        <p className="p-redeem__valid-until">
          This page is valid until <time dateTime={redeem.expiresAt}>{formatTime(redeem.expiresAt)}</time>.
        </p>
      </header>
      <GiftSummary gift={redeem.gift} />
      <RedeemForm
        redeemId={redeem.redeemId}
        prizeId={redeem.gift.prize.id}
        onCompleted={onCompleted}
        onClosed={onClosed}
      />
    </section>
  );
}
