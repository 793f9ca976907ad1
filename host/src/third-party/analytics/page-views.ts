/**
 * Page views come from the host's router, once per route change, named by the route pattern
 * (`/gifts/:giftId`), never by the address: that would carry the gift or redeem id.
 */
import { analytics } from 'shared/analytics';
import { resolvePath } from '../../routes/route-table';

/** The route pattern for a path; `*` for a path no route accepts (the not-found page). */
export function routePatternOf(pathname: string): string {
  const resolved = resolvePath(pathname);
  return 'route' in resolved ? resolved.route.path : '*';
}

let current: string | undefined;
let tagManagerPageView: ((route: string) => void) | undefined;

export function trackPageView(route: string): void {
  current = route;
  analytics.pageView({ route });
  tagManagerPageView?.(route);
}

/** The route on screen, for a third party that starts after the first page view. */
export function currentRoute(): string {
  return current ?? routePatternOf(window.location.pathname);
}

/**
 * The tag manager hears of every page view from the router: the one already on screen when it
 * starts (if the router got there first), then each later one.
 */
export function forwardPageViews(to: (route: string) => void): void {
  tagManagerPageView = to;
  if (current !== undefined) to(current);
}
