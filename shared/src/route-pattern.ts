/**
 * Route patterns (`/gifts/:giftId`) matched as the host's router matches them: react-router's
 * `matchPath` rules, case-insensitive, trailing slashes ignored, `:name` one non-empty segment.
 * The syntax is what `published-routes.ts` accepts: static segments and `:name` segments only.
 * Universal: no DOM, no Node.
 */
import { NOT_FOUND_ROUTE } from './telemetry-values';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One route pattern, compiled once. */
export class RoutePattern {
  readonly staticSegments: number;
  private readonly regExp: RegExp;

  constructor(readonly pattern: string) {
    const segments = pattern.split('/').filter((segment) => segment !== '');
    this.staticSegments = segments.filter((segment) => !segment.startsWith(':')).length;
    const source = segments.map((segment) => (segment.startsWith(':') ? '/[^/]+' : `/${escapeRegExp(segment)}`));
    this.regExp = new RegExp(`^${source.join('') || '/'}/*$`, 'i');
  }

  /** Whether `pathname` (no query, no fragment) is a page of this route. */
  matches(pathname: string): boolean {
    return this.regExp.test(pathname);
  }
}

/** Whether `pathname` is a page of the route `pattern`. */
export function matchesRoutePattern(pattern: string, pathname: string): boolean {
  return new RoutePattern(pattern).matches(pathname);
}

/** The percent-decoding react-router applies before matching: per segment, an encoded `/` stays encoded. */
function decodeSegments(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

/** Finds the route of a path among a set of patterns, ranked as react-router's `matchRoutes` ranks them. */
export class RouteMatcher {
  private readonly routes: RoutePattern[];

  constructor(patterns: Iterable<string>) {
    this.routes = [...patterns]
      .filter((pattern) => pattern !== NOT_FOUND_ROUTE)
      .map((pattern) => new RoutePattern(pattern))
      // A static segment outranks a parameter; equal ranks keep their order.
      .sort((a, b) => b.staticSegments - a.staticSegments);
  }

  /** The pattern of the route that shows `path` (its query and fragment aside), or `*` when none does. */
  patternOfPath(path: string): string {
    const decoded = decodeSegments(path.split(/[?#]/)[0] || '/');
    return this.routes.find((route) => route.matches(decoded))?.pattern ?? NOT_FOUND_ROUTE;
  }

  /** The route pattern of a page's URL; `*` when it is not a URL. */
  patternOfUrl(url: string): string {
    try {
      return this.patternOfPath(new URL(url).pathname);
    } catch {
      return NOT_FOUND_ROUTE;
    }
  }
}
