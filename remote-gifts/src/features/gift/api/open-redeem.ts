/** `POST /api/gifts/:giftId/redeems`: opens (or resumes) a redeem session, then goes to it. */
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { analytics } from 'shared/analytics';
import { useApi } from 'shared/api/api-context';
import { toApiFailure, type ApiFailure } from '../../../utils/api-failure';

export type OpenRedeemState = { status: 'idle' } | { status: 'pending' } | { status: 'failed'; failure: ApiFailure };

/** `prizeId` only labels the analytics event; the gift id never leaves for analytics. */
export function useOpenRedeem(giftId: string, prizeId: string) {
  const api = useApi();
  const navigate = useNavigate();
  const [state, setState] = useState<OpenRedeemState>({ status: 'idle' });
  // State updates are not synchronous: a fast second click would still see 'idle'.
  const inFlight = useRef(false);

  const openRedeem = useCallback(() => {
    if (inFlight.current) return;
    inFlight.current = true;
    setState({ status: 'pending' });
    api.openRedeem(giftId).then(
      // Stays pending (and locked) while the page is left: there is nothing more to click.
      ({ redeemId }) => {
        analytics.track({ name: 'Redeem Started', properties: { prizeId } });
        void navigate(`/redeem/${encodeURIComponent(redeemId)}`);
      },
      (error: unknown) => {
        inFlight.current = false;
        const failure = toApiFailure(error);
        if (failure.retryable) console.warn('[gifts] opening a redeem session failed', error);
        setState({ status: 'failed', failure });
      },
    );
  }, [api, giftId, prizeId, navigate]);

  return { state, openRedeem };
}
