/** `GET /api/gifts/:giftId` as one query for the host's route loader and the gift page alike. */
import { queryOptions } from '@tanstack/react-query';
import { analytics } from 'shared/browser/analytics';
import { serverData } from 'shared/browser/api/prerendered-state';
import { toApiFailure } from '../../api/api-failure';
import type { ApiClient } from '../../api/client';
import type { GiftView } from '../../api/contract';
import { apiQueryKeys } from './query-keys';

/** The host's server checked it against the contract; this only checks it is the gift asked for. */
function isGift(giftId: string, value: unknown): value is GiftView {
  const gift = value as Partial<GiftView> | null;
  return gift?.giftId === giftId && typeof gift.status === 'string' && typeof gift.prize?.id === 'string';
}

function trackView(gift: GiftView): GiftView {
  analytics.track({ name: 'Gift Viewed', properties: { prizeId: gift.prize.id, status: gift.status } });
  return gift;
}

/**
 * Reported once per answer, never by id; a server-rendered answer is fresh until replaced
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
