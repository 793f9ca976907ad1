/**
 * Page views come from the host's router, once per route change, named by the route pattern
 * (`/gifts/:giftId`), never by the address: that would carry the gift or redeem id.
 */
import { analytics } from 'shared/browser/analytics';
import type { RouteTable } from '../../route-table/route-table';

/** The route pattern for a path; `*` for a path no route accepts (the not-found page). */
export function routePatternOf(table: RouteTable, pathname: string): string {
  const resolved = table.resolvePath(pathname);
  return 'route' in resolved ? resolved.route.path : '*';
}

export interface PageViews {
  /** The router's page view: to the analytics facade, and the tag manager once it listens. */
  track(route: string): void;
  /** The route on screen, for a third party that starts after the first page view. */
  current(): string;
  /**
   * The tag manager hears of every page view from the router: the one already on screen when
   * it starts (if the router got there first), then each later one.
   */
  forward(to: (route: string) => void): void;
}

/** `table` names the page on screen until the router's first page view. */
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
