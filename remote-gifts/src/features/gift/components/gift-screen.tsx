/** `/gifts/:giftId`: the gift (an expired one as such), or the host's error page. */
import { useParams } from 'react-router-dom';
import { loadFailureToThrow } from 'shared/api/api-failure';
import { InlineError } from 'shared/browser/feedback/inline-error';
import { isValidId } from 'shared/ids';
import { useDocumentTitle } from 'shared/browser/use-document-title';
import { useGift } from '../api/get-gift';
import { giftNotFound } from '../gift-errors';
import { GiftDetails } from './gift-details';
import { GiftExpired, GIFT_EXPIRED_TITLE } from './gift-expired';
import { GiftSkeleton } from './gift-skeleton';
import './gift-screen.css';

export function GiftScreen() {
  const { giftId } = useParams();
  // A standalone shell has no route validator.
  if (!isValidId(giftId)) throw giftNotFound();
  return <GiftContent giftId={giftId} />;
}

function GiftContent({ giftId }: { giftId: string }) {
  const { state, retry } = useGift(giftId);
  useDocumentTitle(documentTitleOf(state));

  if (state.status === 'ready') {
    // Expired is a state of the gift, said on its own page; the host's error page is for errors.
    if (state.gift.status === 'expired') return <GiftExpired gift={state.gift} />;
    return <GiftDetails gift={state.gift} />;
  }
  if (state.status === 'loading') return <GiftSkeleton />;

  // Trying again can help (outage, timeout, rate limit): keep the visitor on the page.
  const pageError = loadFailureToThrow(state.failure, giftNotFound);
  if (pageError) throw pageError;
  return (
    <section className="p-gift" aria-labelledby="p-gift-title">
      <h1 id="p-gift-title" className="p-gift__heading">
        <span className="p-gift__eyebrow">Your gift</span>
      </h1>
      <InlineError title="Your gift didn't load" message={state.failure.message} onRetry={retry} />
    </section>
  );
}

function documentTitleOf(state: ReturnType<typeof useGift>['state']): string {
  if (state.status !== 'ready') return 'Your gift';
  return state.gift.status === 'expired' ? GIFT_EXPIRED_TITLE : `Your gift: ${state.gift.prize.name}`;
}
