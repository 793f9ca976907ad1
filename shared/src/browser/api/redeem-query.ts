/**
 * `GET /api/redeems/:redeemId` as a query, its key and request in one place for both that ask
 * for it: the host's route loader, which starts it together with the redeem page's code, and the
 * redeem page (remote-redeem), whose own useQuery then finds it on its way or answered.
 */
import { queryOptions } from '@tanstack/react-query';
import { serverData } from 'shared/browser/api/prerendered-state';
import { toApiFailure } from '../../api/api-failure';
import type { ApiClient } from '../../api/client';
import type { RedeemView } from '../../api/contract';
import { apiQueryKeys } from './query-keys';

/**
 * The session the page was rendered with, when it is this one. The host's server checked it
 * against the contract before rendering; this only makes sure it is the session asked for.
 */
function isRedeem(redeemId: string, value: unknown): value is RedeemView {
  const redeem = value as Partial<RedeemView> | null;
  return redeem?.redeemId === redeemId && typeof redeem.status === 'string' && typeof redeem.gift === 'object';
}

/**
 * A page the host's server rendered with the session starts with that answer, fresh until
 * something replaces it: the route's loader and the page do not ask again
 * (docs/decisions/0028-data-pages-rendered-by-the-host-server.md).
 */
export function redeemQueryOptions(api: ApiClient, redeemId: string) {
  const queryKey = apiQueryKeys.redeem(redeemId);
  return queryOptions({
    queryKey,
    initialData: () => {
      const redeem = serverData(queryKey);
      return isRedeem(redeemId, redeem) ? redeem : undefined;
    },
    // The server's answer is as fresh as one fetched now; any later answer, as usual, is not.
    staleTime: (query) => (query.state.dataUpdateCount === 0 && query.state.data !== undefined ? Infinity : 0),
    queryFn: async () => {
      try {
        return await api.getRedeem(redeemId);
      } catch (error) {
        if (toApiFailure(error).retryable) console.warn('[redeem] the redeem session failed to load', error);
        throw error;
      }
    },
  });
}
