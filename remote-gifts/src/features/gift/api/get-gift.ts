/** `GET /api/gifts/:giftId`, and the hook the gift page renders from. */
import { useCallback, useEffect, useState } from 'react';
import { analytics } from 'shared/analytics';
import { useApi } from 'shared/api/api-context';
import type { GiftView } from 'shared/api/contract';
import { toApiFailure, type ApiFailure } from '../../../utils/api-failure';

export type GiftState =
  | { status: 'loading' }
  | { status: 'ready'; gift: GiftView }
  | { status: 'failed'; failure: ApiFailure };

const LOADING: GiftState = { status: 'loading' };

export function useGift(giftId: string): { state: GiftState; retry: () => void } {
  const api = useApi();
  const [attempt, setAttempt] = useState(0);
  // Each result remembers which request it answers, so a retry shows loading at once.
  const [result, setResult] = useState<{ key: string; state: GiftState }>();
  const key = `${giftId}#${attempt}`;

  useEffect(() => {
    // The client takes no signal; an answer nobody waits for any more is dropped here.
    let current = true;
    api.getGift(giftId).then(
      (gift) => {
        if (!current) return;
        setResult({ key, state: { status: 'ready', gift } });
        analytics.track({ name: 'Gift Viewed', properties: { prizeId: gift.prize.id, status: gift.status } });
      },
      (error: unknown) => {
        if (!current) return;
        const failure = toApiFailure(error);
        if (failure.retryable) console.warn('[gifts] the gift failed to load', error);
        setResult({ key, state: { status: 'failed', failure } });
      },
    );
    return () => {
      current = false;
    };
  }, [api, giftId, key]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state: result?.key === key ? result.state : LOADING, retry };
}
