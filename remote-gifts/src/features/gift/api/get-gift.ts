/** The gift page's hook; the query is shared/browser/api/gift-query, which the host's loader starts. */
import { useQuery } from '@tanstack/react-query';
import { useApi } from 'shared/browser/api/api-context';
import { giftQueryOptions } from 'shared/browser/api/gift-query';
import { toApiFailure, type ApiFailure } from 'shared/api/api-failure';
import type { GiftView } from 'shared/api/contract';

export type GiftState =
  { status: 'loading' } | { status: 'ready'; gift: GiftView } | { status: 'failed'; failure: ApiFailure };

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
