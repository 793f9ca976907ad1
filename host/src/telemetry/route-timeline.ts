/**
 * The route pattern of the page on screen, over time: a metric reported later (INP, CLS, at the
 * page's hiding) belongs to the page it happened on, found by the time it happened. Patterns
 * only (`/gifts/:giftId`), never a path: a path carries a gift's or a redeem session's id.
 */
import { HOST_PART, NOT_FOUND_ROUTE } from 'shared/telemetry-values';
import type { RouteTable } from '../route-table/route-table';

/** The route table's pattern for a path; `*` for a path no route matches. */
export function routeOf(table: RouteTable, pathname: string): string {
  return table.matchRoute(pathname)?.route.path ?? NOT_FOUND_ROUTE;
}

/** The part whose page a path shows: its route's remote, or the host for a path no route matches. */
export function routePartOf(table: RouteTable, pathname: string): string {
  return table.matchRoute(pathname)?.route.remote ?? HOST_PART;
}

export interface RouteTimeline {
  /** The router is at `pathname` from `time` on (ms on the page's clock, performance.now()). */
  record(pathname: string, time: number): void;
  /** The route shown at `time`; the first one for a time before it. */
  at(time: number): string;
  current(): string;
}

export function createRouteTimeline(table: RouteTable, firstPathname: string): RouteTimeline {
  // From the document's start (time 0), newest first.
  const entries = [{ time: 0, route: routeOf(table, firstPathname) }];
  const current = () => (entries[0] as { route: string }).route;
  return {
    record(pathname, time) {
      const route = routeOf(table, pathname);
      if (route !== current()) entries.unshift({ time, route });
    },
    at: (time) => (entries.find((entry) => entry.time <= time) ?? (entries.at(-1) as { route: string })).route,
    current,
  };
}
