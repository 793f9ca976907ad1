/** `POST /api/game/plays`: one pick, the server decides. The hook keeps a pick from being sent twice. */
import { useCallback, useRef, useState } from 'react';
import { analytics } from 'shared/analytics';
import { useApi } from 'shared/api/api-context';
import type { PlayResult } from 'shared/api/contract';
import { toApiFailure, type ApiFailure } from '../../../utils/api-failure';

/** `box` is the picked box, 1 to 3: the server does not need it, the reveal does. */
export type PlayState =
  | { status: 'idle' }
  | { status: 'pending'; box: number }
  | { status: 'done'; box: number; result: PlayResult }
  | { status: 'failed'; box: number; failure: ApiFailure };

export function usePlay() {
  const api = useApi();
  const [state, setState] = useState<PlayState>({ status: 'idle' });
  // What the server last said; kept when the visitor starts over, so the count stays on screen.
  const [playsRemaining, setPlaysRemaining] = useState<number>();
  // State updates are not synchronous: a fast second click would still see 'idle'.
  const inFlight = useRef(false);

  const play = useCallback(
    (box: number) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setState({ status: 'pending', box });
      api.play().then(
        (result) => {
          inFlight.current = false;
          setPlaysRemaining(result.playsRemaining);
          setState({ status: 'done', box, result });
          analytics.track({
            name: 'Game Played',
            properties: result.outcome === 'win' ? { outcome: 'win', prizeId: result.gift.prize.id } : { outcome: 'lose', soldOut: result.soldOut },
          });
        },
        (error: unknown) => {
          inFlight.current = false;
          const failure = toApiFailure(error);
          if (failure.statusCode === 429) setPlaysRemaining(0);
          else console.warn('[gifts] a play failed', error);
          setState({ status: 'failed', box, failure });
        },
      );
    },
    [api],
  );

  const reset = useCallback(() => setState({ status: 'idle' }), []);

  return { state, playsRemaining, play, reset };
}
