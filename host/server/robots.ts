/**
 * Search engines and private pages: a gift's or a redeem session's link is its key, so those
 * pages are never to be indexed. Which pages are private comes from the composed route table
 * (`noindex` on a route); the rest of the site is open to crawlers.
 */
import type { RouteDefinition } from '../src/route-table/route-table';

/** The value of `X-Robots-Tag` and of the robots meta tag on a private page. */
export const NOINDEX = 'noindex, nofollow';

/** `/gifts/:giftId` → `/gifts/`: the path up to its first parameter. */
function fixedPrefix(path: string): string {
  const parameter = path.search(/[:*]/);
  return parameter === -1 ? path : path.slice(0, parameter);
}

/** What search engines are told of one route table. */
export class Robots {
  /** The paths up to the first parameter of each private route. */
  readonly privatePrefixes: readonly string[];
  /** `/robots.txt`: every private prefix disallowed, the rest allowed. */
  readonly text: string;

  constructor(routes: readonly Pick<RouteDefinition, 'path' | 'noindex'>[]) {
    this.privatePrefixes = [
      ...new Set(routes.filter((route) => route.noindex).map((route) => fixedPrefix(route.path))),
    ];
    this.text = ['User-agent: *', ...this.privatePrefixes.map((prefix) => `Disallow: ${prefix}`), 'Allow: /', ''].join(
      '\n',
    );
  }

  /**
   * Whether a path is, or is under, a private page (a malformed gift link too), whatever its letter
   * case: the route table matches `/GIFTS/{id}` to the gift's page as it matches `/gifts/{id}`.
   */
  isPrivatePath(pathname: string): boolean {
    const path = pathname.toLowerCase();
    return this.privatePrefixes.some((prefix) => path.startsWith(prefix.toLowerCase()));
  }
}
