/**
 * A redeem session's hook; the query is shared/browser/api/redeem-query, which the host's route
 * loader starts ahead of this page's code.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useApi } from 'shared/browser/api/api-context';
import { loadFailureToThrow, toApiFailure } from 'shared/api/api-failure';
import type { RedeemView } from 'shared/api/contract';
import { apiQueryKeys } from 'shared/browser/api/query-keys';
import { redeemQueryOptions } from 'shared/browser/api/redeem-query';
import { HttpError } from 'shared/http-error';

export type RedeemState =
  | { status: 'loading' }
  | { status: 'ready'; redeem: RedeemView }
  | { status: 'failed'; message: string }
  /** Thrown, so the host shows its error page with this status. */
  | { status: 'missing'; error: HttpError };

export interface RedeemSession {
  state: RedeemState;
  retry: () => void;
  replace: (redeem: RedeemView) => void;
  refresh: () => Promise<RedeemView | undefined>;
}

export function redeemNotFound(): HttpError {
  return new HttpError(
    404,
    'This redeem session was not found. Check the link, or open your gift again to start a new one.',
  );
}

function failedState(error: unknown): RedeemState {
  const failure = toApiFailure(error);
  const thrown = loadFailureToThrow(failure, redeemNotFound);
  return thrown ? { status: 'missing', error: thrown } : { status: 'failed', message: failure.message };
}

export function useRedeem(redeemId: string): RedeemSession {
  const api = useApi();
  const client = useQueryClient();
  const query = useQuery(redeemQueryOptions(api, redeemId));
  // A session once shown stays shown: a later refetch that fails does not take it away.
  const state: RedeemState = query.data
    ? { status: 'ready', redeem: query.data }
    : query.isError
      ? failedState(query.error)
      : { status: 'loading' };

  const { refetch } = query;
  const retry = useCallback(() => void refetch(), [refetch]);
  const replace = useCallback(
    (redeem: RedeemView) => {
      client.setQueryData(apiQueryKeys.redeem(redeemId), redeem);
    },
    [client, redeemId],
  );
  const refresh = useCallback(async () => {
    try {
      // Once, without retries: it only explains a refusal, and the page copes without it.
      return await client.fetchQuery({
        queryKey: apiQueryKeys.redeem(redeemId),
        queryFn: () => api.getRedeem(redeemId),
        retry: false,
      });
    } catch (error) {
      console.warn('[redeem] the redeem session failed to reload', error);
      return undefined;
    }
  }, [api, client, redeemId]);

  return { state, retry, replace, refresh };
}
