/** `GET /api/redeems/:redeemId` as one query for the host's route loader and the redeem page alike. */
import { queryOptions } from '@tanstack/react-query';
import { serverData } from 'shared/browser/api/prerendered-state';
import { toApiFailure } from '../../api/api-failure';
import type { ApiClient } from '../../api/client';
import type { RedeemView } from '../../api/contract';
import { apiQueryKeys } from './query-keys';

/** The host's server checked it against the contract; this only checks it is the session asked for. */
function isRedeem(redeemId: string, value: unknown): value is RedeemView {
  const redeem = value as Partial<RedeemView> | null;
  return redeem?.redeemId === redeemId && typeof redeem.status === 'string' && typeof redeem.gift === 'object';
}

/** A server-rendered answer is fresh until replaced (docs/decisions/0028-data-pages-rendered-by-the-host-server.md). */
export function redeemQueryOptions(api: ApiClient, redeemId: string) {
  const queryKey = apiQueryKeys.redeem(redeemId);
  return queryOptions({
    queryKey,
    initialData: () => {
      const redeem = serverData(queryKey);
      return isRedeem(redeemId, redeem) ? redeem : undefined;
    },
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
