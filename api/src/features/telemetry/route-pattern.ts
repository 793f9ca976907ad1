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
const staticSegments = (route: Compiled) => route.segments.filter((segment) => segment !== undefined).length;

/** Matches paths against a set of route patterns. */
export class RouteMatcher {
  private readonly routes: Compiled[];

  constructor(patterns: Iterable<string>) {
    this.routes = [...patterns]
      .filter((pattern) => pattern !== NOT_FOUND_ROUTE)
      .map((pattern) => ({
        pattern,
        segments: segmentsOf(pattern).map((segment) => (segment.startsWith(':') ? undefined : segment.toLowerCase())),
      }))
      // A static segment wins over a parameter, as in react-router's ranking.
      .sort((a, b) => staticSegments(b) - staticSegments(a));
  }

  patternOfPath(path: string): string {
    const segments = segmentsOf(path).map((segment) => segment.toLowerCase());
    const match = this.routes.find(
      (route) =>
        route.segments.length === segments.length &&
        route.segments.every((segment, index) => segment === undefined || segment === segments[index]),
    );
    return match?.pattern ?? NOT_FOUND_ROUTE;
  }

  /** The route pattern of a page's URL (a CSP report's `documentURL`); `*` when it is not a URL. */
  patternOfUrl(url: string): string {
    try {
      return this.patternOfPath(new URL(url).pathname);
    } catch {
      return NOT_FOUND_ROUTE;
    }
  }
}

const REGISTRY = new RouteMatcher(ROUTE_PATTERNS);

/** The registry's route pattern of a path. */
export const routePatternOfPath = (path: string): string => REGISTRY.patternOfPath(path);

/** The registry's route pattern of a page's URL; `*` when it is not a URL. */
export const routePatternOfUrl = (url: string): string => REGISTRY.patternOfUrl(url);
