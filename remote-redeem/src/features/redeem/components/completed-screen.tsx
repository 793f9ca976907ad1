import { Link } from 'react-router-dom';
import type { RedeemView } from 'shared/api/contract';
import { formatDate, formatTime } from 'shared/format';
import { ScreenHeading } from './screen-heading';
import { VoucherTerms } from './voucher-terms';
import { VoucherTicket } from './voucher-ticket';

interface CompletedScreenProps {
  redeem: RedeemView;
  takeFocus: boolean;
}

/**
 * A completed session. The API shows the voucher code (and the email hint) only to the browser
 * that opened or completed the session; anyone else holding the link learns just that the gift
 * has been redeemed, and when.
 */
export function CompletedScreen({ redeem, takeFocus }: CompletedScreenProps) {
  const { completedAt, emailHint, voucherCode } = redeem;
  return (
    <section className={voucherCode ? 'p-redeem p-redeem--voucher' : 'p-redeem'}>
      {voucherCode ? (
        <>
          <ScreenHeading takeFocus={takeFocus}>Your gift is redeemed</ScreenHeading>
          <p className="p-redeem__text">
            Here is your voucher for <strong>{redeem.gift.prize.name}</strong>. Keep the code: you need it to use your
            gift.
          </p>
          <VoucherTicket redeem={redeem} code={voucherCode} />
          <VoucherTerms terms={redeem.voucherTerms} />
        </>
      ) : (
        <>
          <ScreenHeading takeFocus={takeFocus}>This gift has been redeemed</ScreenHeading>
          <p className="p-redeem__text">
            This gift has been redeemed. A gift can be redeemed only once, and its voucher code is shown only in the
            browser where it was redeemed.
          </p>
        </>
      )}
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
      <div className="p-redeem__actions p-redeem__screen-only">
        {voucherCode && (
          <button type="button" className="p-button p-button--primary" onClick={() => window.print()}>
            Print voucher
          </button>
        )}
        <Link className="p-button" to="/">
          Back to home
        </Link>
      </div>
    </section>
  );
}
