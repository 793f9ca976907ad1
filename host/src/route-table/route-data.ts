/**
 * The API data a page needs from the start: the route's loader asks for it together with the
 * page's code (`host/src/router/route-data.ts` holds the requests), instead of the page asking
 * once its code has arrived and rendered. Named by the route's `serverData` query, the one its
 * server-rendered page is rendered with, so a composed remote's page gets it too.
 */
import type { ServerDataQuery, ValidatorName } from 'shared/remotes';

/** The pages' queries the router can start, by name (`shared/browser/api/gift-query`, `…/redeem-query`). */
export type PageQueryName = ServerDataQuery;

export interface RouteData {
  query: PageQueryName;
  /** The path parameter the query takes; the route's validator has accepted it first. */
  param: string;
}

/** Each query's parameter, which the validator of the same name checks. */
const QUERY_PARAMS: Readonly<Record<PageQueryName, ValidatorName>> = { gift: 'giftId', redeem: 'redeemId' };

/** The data of a route that names a query and validates the query's parameter; none for another. */
export function routeDataOf(route: { serverData?: ServerDataQuery; validator?: ValidatorName }): RouteData | undefined {
  if (route.serverData === undefined) return undefined;
  const param = QUERY_PARAMS[route.serverData];
  return route.validator === param ? { query: route.serverData, param } : undefined;
}
