/**
 * The route pattern of the page on screen, over time: a metric reported later (INP, CLS, at the
 * page's hiding) belongs to the page it happened on, found by the time it happened. Patterns
 * only (`/gifts/:giftId`), never a path: a path carries a gift's or a redeem session's id.
 */
import { HOST_PART, NOT_FOUND_ROUTE } from 'shared/telemetry';
import { matchRoute } from '../route-table/route-table';

/** The route table's pattern for a path; `*` for a path no route matches. */
export function routeOf(pathname: string): string {
  return matchRoute(pathname)?.route.path ?? NOT_FOUND_ROUTE;
}

/** The part whose page a path shows: its route's remote, or the host for a path no route matches. */
export function routePartOf(pathname: string): string {
  return matchRoute(pathname)?.route.remote ?? HOST_PART;
}

export interface RouteTimeline {
  /** The router is at `pathname` from `time` on (ms on the page's clock, performance.now()). */
  record(pathname: string, time: number): void;
  /** The route shown at `time`; the first one for a time before it. */
  at(time: number): string;
  current(): string;
}

export function createRouteTimeline(firstPathname: string): RouteTimeline {
  // From the document's start (time 0), newest last.
  const entries = [{ time: 0, route: routeOf(firstPathname) }];
  const last = () => entries[entries.length - 1] as { time: number; route: string };
  return {
    record(pathname, time) {
      const route = routeOf(pathname);
      if (route !== last().route) entries.push({ time, route });
    },
    at(time) {
      for (let i = entries.length - 1; i > 0; i -= 1) {
        const entry = entries[i] as { time: number; route: string };
        if (entry.time <= time) return entry.route;
      }
      return entries[0]?.route ?? NOT_FOUND_ROUTE;
    },
    current: () => last().route,
  };
}
