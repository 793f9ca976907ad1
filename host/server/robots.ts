/** A gift's link is its key: routes marked `noindex` in the composed table are kept from crawlers. */
import type { RouteDefinition } from '../src/route-table/route-table';

export const NOINDEX = 'noindex, nofollow';

type RobotsRoute = Pick<RouteDefinition, 'path' | 'noindex'>;

/** `/gifts/:giftId` → `/gifts/`. */
function parameterPrefix(path: string): string | undefined {
  const parameter = path.search(/[:*]/);
  return parameter === -1 ? undefined : path.slice(0, parameter);
}

/** Values are URL prefixes: one is given only when it names a whole segment with no open route under it. */
function disallowed(route: RobotsRoute, open: readonly string[]): string | undefined {
  const prefix = parameterPrefix(route.path);
  if (prefix === undefined) return `${route.path}$`;
  if (prefix === '/' || !prefix.endsWith('/')) return undefined;
  const lower = prefix.toLowerCase();
  return open.some((path) => path.toLowerCase().startsWith(lower)) ? undefined : prefix;
}

export class Robots {
  /** Where a path no route matches (a malformed gift link) is private too. */
  readonly privatePrefixes: readonly string[];
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

  /** A path no route matched is private under a private route's prefix, in any letter case, as the table matches. */
  isPrivatePath(pathname: string, matched?: Pick<RouteDefinition, 'noindex'>): boolean {
    if (matched) return matched.noindex === true;
    const path = pathname.toLowerCase();
    return this.privatePrefixes.some((prefix) => path.startsWith(prefix.toLowerCase()));
  }
}
