/**
 * `GET /api/visitor/gifts` as a query: the gifts this browser won or redeemed. One key and one
 * request for every page that asks: the game page lists them, a redeemed gift's page finds its
 * voucher session there, and a win refreshes them.
 */
import { queryOptions } from '@tanstack/react-query';
import { toApiFailure } from '../../api/api-failure';
import type { ApiClient } from '../../api/client';
import { apiQueryKeys } from './query-keys';
import { rememberVisitorGifts } from './visitor-gifts-hint';

export function visitorGiftsQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: apiQueryKeys.visitorGifts(),
    queryFn: async () => {
      try {
        const { gifts } = await api.visitorGifts();
        rememberVisitorGifts(gifts.length);
        return gifts;
      } catch (error) {
        if (toApiFailure(error).retryable) console.warn('your gifts failed to load', error);
        throw error;
      }
    },
  });
}
