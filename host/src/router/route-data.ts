/**
 * Starts a route's data with the query the page itself uses, so its useQuery finds it on its way.
 * Best effort: a failed request changes nothing; the page asks again.
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
  /** Without it, pages load their own data. */
  api?: ApiClient;
  queryClient?: QueryClient;
}

const PAGE_QUERIES: Record<PageQueryName, (client: QueryClient, api: ApiClient, id: string) => Promise<void>> = {
  gift: (client, api, giftId) => prefetchPageQuery(client, giftQueryOptions(api, giftId)),
  redeem: (client, api, redeemId) => prefetchPageQuery(client, redeemQueryOptions(api, redeemId)),
};

/** A press's data is its click's (one request per visit); a press without a click is forgotten after this. */
export const PRESS_TO_CLICK_MS = 5_000;

const askedOnPress = new Map<string, number>();

/** After the route's validators have accepted `params`. */
export function prefetchRouteData(
  route: RouteDefinition,
  params: RouteParams,
  services: RouteDataServices,
  reason: 'navigation' | 'press' = 'navigation',
): void {
  const id = route.data && params[route.data.param];
  if (!route.data || id === undefined || !services.api) return;
  const key = `${route.data.query}:${id}`;
  const pressedAt = askedOnPress.get(key);
  const pressedNow = pressedAt !== undefined && Date.now() - pressedAt < PRESS_TO_CLICK_MS;
  if (reason === 'navigation') askedOnPress.delete(key);
  if (pressedNow) return;
  if (reason === 'press') askedOnPress.set(key, Date.now());
  void PAGE_QUERIES[route.data.query](services.queryClient ?? pageQueryClient, services.api, id);
}
