import type { RedeemView } from 'shared/api/contract';
import { formatDate, formatTime } from 'shared/format';
import { ScreenHeading } from './screen-heading';
import { VoucherCode } from './voucher-code';

interface CompletedScreenProps {
  redeem: RedeemView;
  takeFocus: boolean;
}

export function CompletedScreen({ redeem, takeFocus }: CompletedScreenProps) {
  const { completedAt, emailHint, voucherCode } = redeem;
  return (
    <section className="p-redeem">
      <ScreenHeading takeFocus={takeFocus}>Your gift is redeemed</ScreenHeading>
      <p className="p-redeem__text">
        Here is your voucher for <strong>{redeem.gift.prize.name}</strong>. Keep the code: you need it to use your gift.
      </p>
      {voucherCode && <VoucherCode code={voucherCode} />}
      <dl className="p-redeem__facts">
        {completedAt && (
          <div>
            <dt>Redeemed</dt>
            <dd>
              <time dateTime={completedAt}>
                {formatDate(completedAt)}, {formatTime(completedAt)}
              </time>
            </dd>
          </div>
        )}
        {emailHint && (
          <div>
            <dt>Email</dt>
            <dd>{emailHint}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}
