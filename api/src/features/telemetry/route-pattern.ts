/**
 * The route pattern a page's path matches, as the host's router matches it (react-router's
 * `:param` segments, case-insensitive, a trailing slash ignored): `/gifts/AbCd…` → `/gifts/:giftId`,
 * a path no route matches → `*`. A label never holds the path itself: it holds ids.
 */
import { NOT_FOUND_ROUTE, ROUTE_PATTERNS } from 'shared/telemetry';

interface Compiled {
  pattern: string;
  /** `undefined` for a parameter. */
  segments: (string | undefined)[];
}

const segmentsOf = (path: string) => path.split('/').filter((segment) => segment !== '');

const ROUTES: Compiled[] = ROUTE_PATTERNS.filter((pattern) => pattern !== NOT_FOUND_ROUTE)
  .map((pattern) => ({
    pattern,
    segments: segmentsOf(pattern).map((segment) => (segment.startsWith(':') ? undefined : segment.toLowerCase())),
  }))
  // A static segment wins over a parameter, as in react-router's ranking.
  .sort(
    (a, b) =>
      b.segments.filter((segment) => segment !== undefined).length -
      a.segments.filter((segment) => segment !== undefined).length,
  );

export function routePatternOfPath(path: string): string {
  const segments = segmentsOf(path).map((segment) => segment.toLowerCase());
  const match = ROUTES.find(
    (route) =>
      route.segments.length === segments.length &&
      route.segments.every((segment, index) => segment === undefined || segment === segments[index]),
  );
  return match?.pattern ?? NOT_FOUND_ROUTE;
}

/** The route pattern of a page's URL (a CSP report's `documentURL`); `*` when it is not a URL. */
export function routePatternOfUrl(url: string): string {
  try {
    return routePatternOfPath(new URL(url).pathname);
  } catch {
    return NOT_FOUND_ROUTE;
  }
}
