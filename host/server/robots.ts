/**
 * Search engines and private pages: a gift's or a redeem session's link is its key, so those
 * pages are never to be indexed. Which pages are private comes from the composed route table
 * (`noindex` on a route): a page is private when the route it matched is; the rest of the site is
 * open to crawlers, whichever remote holds the paths beside a private route.
 */
import type { RouteDefinition } from '../src/route-table/route-table';

/** The value of `X-Robots-Tag` and of the robots meta tag on a private page. */
export const NOINDEX = 'noindex, nofollow';

type RobotsRoute = Pick<RouteDefinition, 'path' | 'noindex'>;

/** `/gifts/:giftId` → `/gifts/`: the path up to its first parameter; undefined for a path with none. */
function parameterPrefix(path: string): string | undefined {
  const parameter = path.search(/[:*]/);
  return parameter === -1 ? undefined : path.slice(0, parameter);
}

/**
 * The `Disallow:` value of a private route, or undefined when none is safe. robots.txt matches
 * values as prefixes of the URL: a path with a parameter is disallowed up to it, but only when that
 * names a whole segment (ends in `/`, not just `/`) and no open route lies under it; a path without
 * one is disallowed alone (`$` ends it; a crawler that does not read `$` disallows nothing by it).
 */
function disallowed(route: RobotsRoute, open: readonly string[]): string | undefined {
  const prefix = parameterPrefix(route.path);
  if (prefix === undefined) return `${route.path}$`;
  if (prefix === '/' || !prefix.endsWith('/')) return undefined;
  const lower = prefix.toLowerCase();
  return open.some((path) => path.toLowerCase().startsWith(lower)) ? undefined : prefix;
}

/** What search engines are told of one route table. */
export class Robots {
  /**
   * The whole segments under a private route's parameter (`/gifts/`), where a path no route
   * matches (a malformed gift link) is private too.
   */
  readonly privatePrefixes: readonly string[];
  /** `/robots.txt`: each private route disallowed as far as that leaves every open route allowed. */
  readonly text: string;

  constructor(routes: readonly RobotsRoute[]) {
    const open = routes.filter((route) => !route.noindex).map((route) => route.path);
    const lines = [
      ...new Set(
        routes.flatMap((route) => {
          const value = route.noindex ? disallowed(route, open) : undefined;
          return value === undefined ? [] : [value];
        }),
      ),
    ];
    this.privatePrefixes = lines.filter((line) => line.endsWith('/'));
    this.text = ['User-agent: *', ...lines.map((line) => `Disallow: ${line}`), 'Allow: /', ''].join('\n');
  }

  /**
   * Whether the page at `pathname` is private: as the route it matched says, or, for a path no
   * route matched, when it lies under a private route's prefix, whatever its letter case (the
   * route table matches `/GIFTS/{id}` to the gift's page as it matches `/gifts/{id}`).
   */
  isPrivatePath(pathname: string, matched?: Pick<RouteDefinition, 'noindex'>): boolean {
    if (matched) return matched.noindex === true;
    const path = pathname.toLowerCase();
    return this.privatePrefixes.some((prefix) => path.startsWith(prefix.toLowerCase()));
  }
}
