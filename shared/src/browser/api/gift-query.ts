/**
 * `GET /api/gifts/:giftId` as a query, its key and request in one place for both that ask for
 * it: the host's route loader, which starts it together with the gift page's code, and the gift
 * page (remote-gifts), whose own useQuery then finds it on its way or answered.
 */
import { queryOptions } from '@tanstack/react-query';
import { analytics } from 'shared/browser/analytics';
import { serverData } from 'shared/browser/api/prerendered-state';
import { toApiFailure } from '../../api/api-failure';
import type { ApiClient } from '../../api/client';
import type { GiftView } from '../../api/contract';
import { apiQueryKeys } from './query-keys';

/**
 * The gift the page was rendered with, when it is this one. The host's server checked it against
 * the contract before rendering; this only makes sure it is the gift asked for, in its shape.
 */
function isGift(giftId: string, value: unknown): value is GiftView {
  const gift = value as Partial<GiftView> | null;
  return gift?.giftId === giftId && typeof gift.status === 'string' && typeof gift.prize?.id === 'string';
}

function trackView(gift: GiftView): GiftView {
  analytics.track({ name: 'Gift Viewed', properties: { prizeId: gift.prize.id, status: gift.status } });
  return gift;
}

/**
 * Each answer is a view of the gift: reported once per answer, by prize and status, never by id.
 * A page the host's server rendered with the gift starts with that answer, reported as the view
 * it is, and fresh until something replaces it: the route's loader and the page do not ask again
 * (docs/decisions/0028-data-pages-rendered-by-the-host-server.md).
 */
export function giftQueryOptions(api: ApiClient, giftId: string) {
  const queryKey = apiQueryKeys.gift(giftId);
  return queryOptions({
    queryKey,
    initialData: () => {
      const gift = serverData(queryKey);
      return isGift(giftId, gift) ? trackView(gift) : undefined;
    },
    // The server's answer is as fresh as one fetched now; any later answer, as usual, is not.
    staleTime: (query) => (query.state.dataUpdateCount === 0 && query.state.data !== undefined ? Infinity : 0),
    queryFn: async () => {
      try {
        return trackView(await api.getGift(giftId));
      } catch (error) {
        if (toApiFailure(error).retryable) console.warn('[gifts] the gift failed to load', error);
        throw error;
      }
    },
  });
}
