/**
 * `POST /api/game/plays`: one pick is one request. Its idempotency key is kept for the tab
 * (stored-play.ts), so after a reload the same play's first answer comes back, nothing spent.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { analytics } from 'shared/browser/analytics';
import { useApi } from 'shared/browser/api/api-context';
import { toApiFailure, type ApiFailure } from 'shared/api/api-failure';
import type { ApiClient } from 'shared/api/client';
import type { PlayResult } from 'shared/api/contract';
import { apiQueryKeys } from 'shared/browser/api/query-keys';
import { useMutationOnce } from 'shared/browser/api/use-mutation-once';
import { visitorGiftsQueryOptions } from 'shared/browser/api/visitor-gifts-query';
import { forgetPlay, newPlayKey, readStoredPlay, storePlay, type StoredPlay } from './stored-play';

/** `resumed`: picked before this page opened (a reload, Back), so the outcome shows without the show. */
export type PlayState =
  | { status: 'idle' }
  | { status: 'pending'; box: number }
  | { status: 'done'; box: number; result: PlayResult; resumed: boolean }
  | { status: 'failed'; box: number; failure: ApiFailure };

export interface PlayVariables extends StoredPlay {
  resumed: boolean;
}

const PLAY_MUTATION_KEY = ['api', 'game', 'plays'] as const;

export function playMutationOptions(api: ApiClient, queryClient: ReturnType<typeof useQueryClient>) {
  return {
    mutationKey: PLAY_MUTATION_KEY,
    mutationFn: async ({ key }: PlayVariables) => {
      // The visitor cookie first, so a play whose answer is lost can be asked again as the same visitor.
      await queryClient.ensureQueryData(visitorGiftsQueryOptions(api)).catch(() => undefined);
      return api.play(key);
    },
  };
}

function trackPlay(result: PlayResult): void {
  analytics.track({
    name: 'Game Played',
    properties:
      result.outcome === 'win'
        ? { outcome: 'win', prizeId: result.gift.prize.id }
        : { outcome: 'lose', soldOut: result.soldOut },
  });
}

export function usePlay() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [playsRemaining, setPlaysRemaining] = useState<number>();
  const [playsResetAt, setPlaysResetAt] = useState<string>();
  // React state, so flushSync(reset) re-enables the boxes at once (the mutation's reset lags a tick).
  const [dismissedAt, setDismissedAt] = useState<number>();
  const mutation = useMutationOnce({
    ...playMutationOptions(api, queryClient),
    onSuccess: (result, { resumed }) => {
      setPlaysRemaining(result.playsRemaining);
      setPlaysResetAt(result.playsResetAt);
      if (!resumed) trackPlay(result);
      if (result.outcome === 'win') void queryClient.invalidateQueries({ queryKey: apiQueryKeys.visitorGifts() });
    },
    onError: (error) => {
      const failure = toApiFailure(error);
      if (!failure.retryable || failure.statusCode === 429) forgetPlay();
      if (failure.statusCode === 429) {
        setPlaysRemaining(0);
        const wait = failure.retryAfterSeconds;
        setPlaysResetAt(wait === undefined ? undefined : new Date(Date.now() + wait * 1000).toISOString());
      } else console.warn('[gifts] a play failed', error);
    },
  });
  const { send } = mutation;

  useEffect(() => {
    const stored = readStoredPlay();
    if (stored) void send({ ...stored, resumed: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the page opens
  }, []);

  const variables = mutation.submittedAt === dismissedAt ? undefined : mutation.variables;
  const box = variables?.box;
  let state: PlayState = { status: 'idle' };
  if (box !== undefined && mutation.isPending) state = { status: 'pending', box };
  else if (box !== undefined && mutation.isSuccess)
    state = { status: 'done', box, result: mutation.data, resumed: variables?.resumed ?? false };
  else if (box !== undefined && mutation.isError)
    state = { status: 'failed', box, failure: toApiFailure(mutation.error) };

  const play = (picked: number) => {
    // A play under way keeps its key: a second click in the same tick is no second play.
    if (queryClient.isMutating({ mutationKey: PLAY_MUTATION_KEY, exact: true }) > 0) return;
    const next = { box: picked, key: newPlayKey(), at: Date.now() };
    storePlay(next);
    void send({ ...next, resumed: false });
  };

  const retry = () => {
    if (mutation.variables) void send({ ...mutation.variables, resumed: false });
  };

  const reset = () => {
    forgetPlay();
    setDismissedAt(mutation.submittedAt);
    mutation.reset();
  };

  return { state, playsRemaining, playsResetAt, play, retry, reset };
}
