/** `POST /api/game/plays`: one pick, the server decides. One pick is one request, however fast the clicks. */
import { useState } from 'react';
import { analytics } from 'shared/browser/analytics';
import { useApi } from 'shared/browser/api/api-context';
import { toApiFailure, type ApiFailure } from 'shared/api/api-failure';
import type { ApiClient } from 'shared/api/client';
import type { PlayResult } from 'shared/api/contract';
import { useMutationOnce } from 'shared/browser/api/use-mutation-once';

/** `box` is the picked box, 1 to 3: the server does not need it, the reveal does. */
export type PlayState =
  | { status: 'idle' }
  | { status: 'pending'; box: number }
  | { status: 'done'; box: number; result: PlayResult }
  | { status: 'failed'; box: number; failure: ApiFailure };

export function playMutationOptions(api: ApiClient) {
  return {
    mutationKey: ['api', 'game', 'plays'] as const,
    mutationFn: (_box: number) => api.play(),
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
  // What the server last said; kept when the visitor starts over, so the count stays on screen.
  const [playsRemaining, setPlaysRemaining] = useState<number>();
  // The play the visitor has put behind them. Set with React state, so that flushSync(reset)
  // re-enables the boxes at once: the mutation's own reset reaches React a tick later.
  const [dismissedAt, setDismissedAt] = useState<number>();
  const mutation = useMutationOnce({
    ...playMutationOptions(api),
    onSuccess: (result) => {
      setPlaysRemaining(result.playsRemaining);
      trackPlay(result);
    },
    onError: (error) => {
      if (toApiFailure(error).statusCode === 429) setPlaysRemaining(0);
      else console.warn('[gifts] a play failed', error);
    },
  });

  const box = mutation.submittedAt === dismissedAt ? undefined : mutation.variables;
  let state: PlayState = { status: 'idle' };
  if (box !== undefined && mutation.isPending) state = { status: 'pending', box };
  else if (box !== undefined && mutation.isSuccess) state = { status: 'done', box, result: mutation.data };
  else if (box !== undefined && mutation.isError)
    state = { status: 'failed', box, failure: toApiFailure(mutation.error) };

  const reset = () => {
    setDismissedAt(mutation.submittedAt);
    mutation.reset();
  };

  return { state, playsRemaining, play: (picked: number) => void mutation.send(picked), reset };
}
