/** `POST /api/gifts/:giftId/redeems`: opens (or resumes) a redeem session, then goes to it. */
import { useNavigate } from 'react-router-dom';
import { analytics } from 'shared/browser/analytics';
import { useApi } from 'shared/browser/api/api-context';
import { toApiFailure, type ApiFailure } from 'shared/api/api-failure';
import type { ApiClient } from 'shared/api/client';
import { useMutationOnce } from 'shared/browser/api/use-mutation-once';

export type OpenRedeemState = { status: 'idle' } | { status: 'pending' } | { status: 'failed'; failure: ApiFailure };

export function openRedeemMutationOptions(api: ApiClient, giftId: string) {
  return {
    mutationKey: ['api', 'gifts', giftId, 'redeems'] as const,
    mutationFn: () => api.openRedeem(giftId),
  };
}

/** `prizeId` only labels the analytics event; the gift id never leaves for analytics. */
export function useOpenRedeem(giftId: string, prizeId: string) {
  const navigate = useNavigate();
  const mutation = useMutationOnce({
    ...openRedeemMutationOptions(useApi(), giftId),
    onSuccess: ({ redeemId }) => {
      analytics.track({ name: 'Redeem Started', properties: { prizeId } });
      void navigate(`/redeem/${encodeURIComponent(redeemId)}`);
    },
    onError: (error) => {
      if (toApiFailure(error).retryable) console.warn('[gifts] opening a redeem session failed', error);
    },
  });

  // Stays pending (and locked) once the session is open, while the page is left: there is
  // nothing more to click.
  const state: OpenRedeemState =
    mutation.isPending || mutation.isSuccess
      ? { status: 'pending' }
      : mutation.isError
        ? { status: 'failed', failure: toApiFailure(mutation.error) }
        : { status: 'idle' };

  const openRedeem = () => {
    if (!mutation.isSuccess) void mutation.send(undefined);
  };

  return { state, openRedeem };
}
