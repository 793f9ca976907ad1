/**
 * `GET /api/redeems/:redeemId` as a query, its key and request in one place for both that ask
 * for it: the host's route loader, which starts it together with the redeem page's code, and the
 * redeem page (remote-redeem), whose own useQuery then finds it on its way or answered.
 */
import { queryOptions } from '@tanstack/react-query';
import { toApiFailure } from '../../api/api-failure';
import type { ApiClient } from '../../api/client';
import { apiQueryKeys } from './query-keys';

export function redeemQueryOptions(api: ApiClient, redeemId: string) {
  return queryOptions({
    queryKey: apiQueryKeys.redeem(redeemId),
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
