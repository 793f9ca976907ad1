/** Page views named by route pattern, never by the address: that would carry a gift or redeem id. */
import { analytics } from 'shared/browser/analytics';
import type { RouteTable } from '../../route-table/route-table';

export function routePatternOf(table: RouteTable, pathname: string): string {
  const resolved = table.resolvePath(pathname);
  return 'route' in resolved ? resolved.route.path : '*';
}

export interface PageViews {
  track(route: string): void;
  current(): string;
  /** The one already on screen too, should the router have got there first. */
  forward(to: (route: string) => void): void;
}

export function createPageViews(table: RouteTable): PageViews {
  let current: string | undefined;
  let forwardTo: ((route: string) => void) | undefined;
  return {
    track(route) {
      current = route;
      analytics.pageView({ route });
      forwardTo?.(route);
    },
    current: () => current ?? routePatternOf(table, window.location.pathname),
    forward(to) {
      forwardTo = to;
      if (current !== undefined) to(current);
    },
  };
}
