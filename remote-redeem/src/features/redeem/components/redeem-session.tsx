/** One redeem session: loads it and shows the screen for its state, keeping up as it changes. */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { CompleteRedeemBody, CompleteRedeemResult, GiftView } from 'shared/api/contract';
import { apiQueryKeys } from 'shared/browser/api/query-keys';
import { InlineError } from 'shared/browser/feedback/inline-error';
import type { HttpError } from 'shared/http-error';
import { useDocumentTitle } from 'shared/browser/use-document-title';
import { useRedeem } from '../api/get-redeem';
import { completedView } from '../redeem-view';
import { CompletedScreen } from './completed-screen';
import { ExpiredScreen } from './expired-screen';
import { OpenScreen } from './open-screen';
import { RedeemSkeleton } from './redeem-skeleton';
import { SupersededScreen } from './superseded-screen';
import './redeem-screen.css';

export function RedeemSession({ redeemId }: { redeemId: string }) {
  const { state, retry, replace, refresh } = useRedeem(redeemId);
  const queryClient = useQueryClient();
  // Whether the screen changed under the visitor's hands, rather than on arrival.
  const [changedHere, setChangedHere] = useState(false);
  const redeem = state.status === 'ready' ? state.redeem : undefined;
  useDocumentTitle(
    redeem?.status === 'completed' ? (redeem.voucherCode ? 'Your voucher' : 'Gift redeemed') : 'Redeem your gift',
  );

  const onCompleted = useCallback(
    (result: CompleteRedeemResult, body: CompleteRedeemBody) => {
      if (!redeem) return;
      const completed = completedView(redeem, result, body.email);
      replace(completed);
      // A gift page this visitor saw (the cache is the page's, every remote's) shows the gift
      // redeemed straight away if they go back to it; it asks the API again all the same.
      queryClient.setQueryData<GiftView>(apiQueryKeys.gift(completed.gift.giftId), (gift) => gift && completed.gift);
      setChangedHere(true);
    },
    [redeem, replace, queryClient],
  );

  // 409 or 410: the session's own state now says why (superseded, completed elsewhere, expired).
  const onClosed = useCallback(
    async (error: HttpError) => {
      const latest = await refresh();
      if (latest && latest.status !== 'open') {
        setChangedHere(true);
        return true;
      }
      if (error.statusCode !== 410 || !redeem) return false;
      replace({ ...redeem, status: 'expired' });
      setChangedHere(true);
      return true;
    },
    [redeem, refresh, replace],
  );

  if (state.status === 'missing') throw state.error;
  if (state.status === 'loading') return <RedeemSkeleton />;
  if (state.status === 'failed') {
    // The API did not answer: a normal state of the page, with a way on that keeps the layout.
    return (
      <section className="p-redeem">
        <InlineError asHeading title="Your gift didn’t load" message={state.message} onRetry={retry} />
      </section>
    );
  }

  const view = state.redeem;
  switch (view.status) {
    case 'open':
      return <OpenScreen redeem={view} onCompleted={onCompleted} onClosed={onClosed} />;
    case 'completed':
      return <CompletedScreen redeem={view} takeFocus={changedHere} />;
    case 'expired':
      return <ExpiredScreen gift={view.gift} takeFocus={changedHere} />;
    case 'superseded':
      return <SupersededScreen gift={view.gift} takeFocus={changedHere} />;
  }
}
