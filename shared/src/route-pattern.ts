/**
 * Route patterns matched as react-router's `matchPath` and ranked as `matchRoutes` (the test holds
 * them to it), in the syntax published-routes.ts accepts. Universal: no DOM, no Node.
 */
import { NOT_FOUND_ROUTE } from './telemetry-values';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class RoutePattern {
  readonly staticSegments: number;
  private readonly regExp: RegExp;

  constructor(readonly pattern: string) {
    const segments = pattern.split('/').filter((segment) => segment !== '');
    this.staticSegments = segments.filter((segment) => !segment.startsWith(':')).length;
    const source = segments.map((segment) => (segment.startsWith(':') ? '/[^/]+' : `/${escapeRegExp(segment)}`));
    this.regExp = new RegExp(['^', source.join('') || '/', '/*$'].join(''), 'i');
  }

  matches(pathname: string): boolean {
    return this.regExp.test(pathname);
  }
}

export function matchesRoutePattern(pattern: string, pathname: string): boolean {
  return new RoutePattern(pattern).matches(pathname);
}

/** react-router's decoding: an encoded `/` stays encoded. */
function decodeSegments(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replaceAll('/', '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

export class RouteMatcher {
  private readonly routes: RoutePattern[];

  constructor(patterns: Iterable<string>) {
    this.routes = [...patterns]
      .filter((pattern) => pattern !== NOT_FOUND_ROUTE)
      .map((pattern) => new RoutePattern(pattern))
      .sort((a, b) => b.staticSegments - a.staticSegments);
  }

  /** `*` when no route shows it. */
  patternOfPath(path: string): string {
    const decoded = decodeSegments(path.split(/[?#]/)[0] || '/');
    return this.routes.find((route) => route.matches(decoded))?.pattern ?? NOT_FOUND_ROUTE;
  }

  patternOfUrl(url: string): string {
    try {
      return this.patternOfPath(new URL(url).pathname);
    } catch {
      return NOT_FOUND_ROUTE;
    }
  }
}
