/** `GET /api/gifts/:giftId`, and the hook the gift page renders from. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { analytics } from 'shared/browser/analytics';
import { useApi } from 'shared/browser/api/api-context';
import { toApiFailure, type ApiFailure } from 'shared/api/api-failure';
import type { ApiClient } from 'shared/api/client';
import type { GiftView } from 'shared/api/contract';
import { apiQueryKeys } from 'shared/browser/api/query-keys';

export type GiftState =
  { status: 'loading' } | { status: 'ready'; gift: GiftView } | { status: 'failed'; failure: ApiFailure };

/** Each answer is a view of the gift: reported once per fetch, by prize and status, never by id. */
export function giftQueryOptions(api: ApiClient, giftId: string) {
  return queryOptions({
    queryKey: apiQueryKeys.gift(giftId),
    queryFn: async () => {
      try {
        const gift = await api.getGift(giftId);
        analytics.track({ name: 'Gift Viewed', properties: { prizeId: gift.prize.id, status: gift.status } });
        return gift;
      } catch (error) {
        if (toApiFailure(error).retryable) console.warn('[gifts] the gift failed to load', error);
        throw error;
      }
    },
  });
}

export function useGift(giftId: string): { state: GiftState; retry: () => void } {
  const query = useQuery(giftQueryOptions(useApi(), giftId));
  // A gift once shown stays shown: a later refetch that fails does not take it away.
  const state: GiftState = query.data
    ? { status: 'ready', gift: query.data }
    : query.isError
      ? { status: 'failed', failure: toApiFailure(query.error) }
      : { status: 'loading' };
  return { state, retry: () => void query.refetch() };
}
