/**
 * Starts a route's data (the route table's `data`) into the page's QueryClient, with the query
 * the page itself uses (`shared/browser/api/…`): the page's useQuery then finds the request on
 * its way or answered, and does not send another. Best effort: a failed request changes
 * nothing, the page asks again and shows its own error and "Try again" (page-prefetch.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from 'shared/api/client';
import { giftQueryOptions } from 'shared/browser/api/gift-query';
import { prefetchPageQuery } from 'shared/browser/api/page-prefetch';
import { queryClient as pageQueryClient } from 'shared/browser/api/query-client';
import { redeemQueryOptions } from 'shared/browser/api/redeem-query';
import type { PageQueryName } from '../route-table/route-data';
import type { RouteDefinition, RouteParams } from '../route-table/route-table';

export interface RouteDataServices {
  /** The API client the pages get from `ApiProvider`; without it, pages load their own data. */
  api?: ApiClient;
  /** The page's one QueryClient (`shared/browser/api/query-client`) unless a test passes its own. */
  queryClient?: QueryClient;
}

const PAGE_QUERIES: Record<PageQueryName, (client: QueryClient, api: ApiClient, id: string) => Promise<void>> = {
  gift: (client, api, giftId) => prefetchPageQuery(client, giftQueryOptions(api, giftId)),
  redeem: (client, api, redeemId) => prefetchPageQuery(client, redeemQueryOptions(api, redeemId)),
};

/** Call after the route's validators have accepted `params`. */
export function prefetchRouteData(route: RouteDefinition, params: RouteParams, services: RouteDataServices): void {
  const id = route.data && params[route.data.param];
  if (!route.data || id === undefined || !services.api) return;
  void PAGE_QUERIES[route.data.query](services.queryClient ?? pageQueryClient, services.api, id);
}
