/** The API data a route's loader asks for with the page's code, named by its `serverData` query. */
import type { ServerDataQuery, ValidatorName } from 'shared/remotes';

export type PageQueryName = ServerDataQuery;

export interface RouteData {
  query: PageQueryName;
  param: string;
}

const QUERY_PARAMS: Readonly<Record<PageQueryName, ValidatorName>> = { gift: 'giftId', redeem: 'redeemId' };

export function routeDataOf(route: { serverData?: ServerDataQuery; validator?: ValidatorName }): RouteData | undefined {
  if (route.serverData === undefined) return undefined;
  const param = QUERY_PARAMS[route.serverData];
  return route.validator === param ? { query: route.serverData, param } : undefined;
}
