/** A loaded gift: the unwrap, the prize, where the gift stands, and what can be done with it. */
import { Link } from 'react-router-dom';
import type { ApiFailure } from 'shared/api/api-failure';
import type { GiftStatus as Status, GiftView } from 'shared/api/contract';
import { InlineError } from 'shared/browser/feedback/inline-error';
import { formatPrizeValue } from 'shared/format';
import { Icon } from 'shared/browser/icons/icon';
import { GiftBox } from '../../../components/gift-box';
import { useOpenRedeem } from '../api/open-redeem';
import { useVoucherSession } from '../api/get-voucher-session';
import { useShareLink } from '../../../hooks/use-share-link';
import { GiftStatus } from './gift-status';
import { RedeemButton } from './redeem-button';
import { ShareButton } from './share-button';
import { ShareFeedback } from './share-feedback';

/** A refused redeem is news about the gift: redeemed meanwhile (409) or expired (410). */
function statusAfter(gift: GiftView, failure: ApiFailure | undefined): Status {
  if (failure?.statusCode === 409) return 'redeemed';
  if (failure?.statusCode === 410) return 'expired';
  return gift.status;
}

export function GiftDetails({ gift }: { gift: GiftView }) {
  const { prize } = gift;
  const { state: redeem, openRedeem } = useOpenRedeem(gift.giftId, prize.id);
  const share = useShareLink(`${prize.name} · Gift Box`, `A gift for you: ${prize.name}`);
  const failure = redeem.status === 'failed' ? redeem.failure : undefined;
  const status = statusAfter(gift, failure);
  const voucherSession = useVoucherSession(gift.giftId, status === 'redeemed');

  return (
    <article className="p-gift" aria-labelledby="p-gift-title" data-status={status}>
      <div className="p-gift__stage">
        <GiftBox state="open" contents="prize" unwrap />
      </div>
      {/* Named like the document title: two visual lines, one heading. */}
      <h1 id="p-gift-title" className="p-gift__heading" aria-label={`Your gift: ${prize.name}`}>
        <span className="p-gift__eyebrow">Your gift</span>
        <span className="p-gift__title">{prize.name}</span>
      </h1>
      <div className="p-gift__card">
        <span className="p-gift__prize-icon">
          <Icon icon={prize.icon} size="2.25rem" />
        </span>
        <p className="p-gift__value">{formatPrizeValue(prize.value)}</p>
        <p className="p-gift__description">{prize.description}</p>
        <GiftStatus gift={gift} status={status} />
        <div className="p-gift__actions">
          {status === 'available' && (
            <RedeemButton
              pending={redeem.status === 'pending'}
              retry={failure?.retryable ?? false}
              onRedeem={openRedeem}
            />
          )}
          {status === 'redeemed' && voucherSession && (
            <Link className="p-button p-button--primary" to={`/redeem/${encodeURIComponent(voucherSession)}`}>
              See your voucher
            </Link>
          )}
          <ShareButton onShare={() => void share.shareLink()} />
        </div>
        {failure && status === 'available' && <InlineError title="Redeeming didn't start" message={failure.message} />}
        <ShareFeedback feedback={share.feedback} />
      </div>
    </article>
  );
}
