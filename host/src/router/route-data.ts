/**
 * Starts a route's data (the route table's `data`) into the page's QueryClient, with the query
 * the page itself uses (`shared/browser/api/…`): the page's useQuery then finds the request on
 * its way or answered, and does not send another; a press on a link to the page may have asked
 * already (navigation/link-intent.tsx). Best effort: a failed request changes nothing, the page
 * asks again and shows its own error and "Try again" (page-prefetch.ts).
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

/**
 * A press on a link (pointerdown, touchstart) is followed by its click within a moment: the data
 * it asked for is the navigation's, which asks no more (one request, one reported view, per
 * visit). A press not followed by its click is forgotten after this long.
 */
export const PRESS_TO_CLICK_MS = 5_000;

/** When a press asked for a page's data, by query and id. */
const askedOnPress = new Map<string, number>();

/**
 * Call after the route's validators have accepted `params`: by the route's loader (`navigation`),
 * or when a link to the route is pressed (`press`, navigation/link-intent.tsx).
 */
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
