/**
 * The API data a page needs from the start, by remote and module: the route's loader asks for it
 * together with the page's code (`host/src/router/route-data.ts` holds the requests), instead of
 * the page asking once its code has arrived and rendered. Data, like the rest of the table.
 */
import type { RemoteModuleName, RemoteName } from 'shared/remotes';

/** The pages' queries the router can start, by name (`shared/browser/api/gift-query`, `…/redeem-query`). */
export type PageQueryName = 'gift' | 'redeem';

export interface RouteData {
  query: PageQueryName;
  /** The path parameter the query takes; the route's validator has accepted it first. */
  param: string;
}

export const ROUTE_DATA: { readonly [R in RemoteName]?: Partial<Record<RemoteModuleName<R>, RouteData>> } = {
  gifts: { GiftPage: { query: 'gift', param: 'giftId' } },
  redeem: { RedeemPage: { query: 'redeem', param: 'redeemId' } },
};

export function routeDataOf(remote: RemoteName, module: string): RouteData | undefined {
  const pages: Partial<Record<string, RouteData>> | undefined = ROUTE_DATA[remote];
  return pages?.[module];
}
