/** The route on screen over time, for metrics reported later; patterns only, never ids. */
import { HOST_PART, NOT_FOUND_ROUTE } from 'shared/telemetry-values';
import type { RouteTable } from '../route-table/route-table';

export function routeOf(table: RouteTable, pathname: string): string {
  return table.matchRoute(pathname)?.route.path ?? NOT_FOUND_ROUTE;
}

export function routePartOf(table: RouteTable, pathname: string): string {
  return table.matchRoute(pathname)?.route.remote ?? HOST_PART;
}

export interface RouteTimeline {
  /** `time`: performance.now(). */
  record(pathname: string, time: number): void;
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
