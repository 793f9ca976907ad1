/**
 * `GET /api/gifts/:giftId` as a query, its key and request in one place for both that ask for
 * it: the host's route loader, which starts it together with the gift page's code, and the gift
 * page (remote-gifts), whose own useQuery then finds it on its way or answered.
 */
import { queryOptions } from '@tanstack/react-query';
import { analytics } from 'shared/browser/analytics';
import { toApiFailure } from '../../api/api-failure';
import type { ApiClient } from '../../api/client';
import { apiQueryKeys } from './query-keys';

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
