/**
 * Search engines and private pages: a gift's or a redeem session's link is its key, so those
 * pages are never to be indexed. Which pages are private comes from the route table
 * (`noindex` in the registry of remotes); the rest of the site is open to crawlers.
 */
import { ROUTES } from '../src/route-table/route-table';

/** The value of `X-Robots-Tag` and of the robots meta tag on a private page. */
export const NOINDEX = 'noindex, nofollow';

/** `/gifts/:giftId` → `/gifts/`: the path up to its first parameter. */
function fixedPrefix(path: string): string {
  const parameter = path.search(/[:*]/);
  return parameter === -1 ? path : path.slice(0, parameter);
}

export const PRIVATE_PREFIXES: readonly string[] = [
  ...new Set(ROUTES.filter((route) => route.noindex).map((route) => fixedPrefix(route.path))),
];

/**
 * Whether a path is, or is under, a private page (a malformed gift link too), whatever its letter
 * case: the route table matches `/GIFTS/{id}` to the gift's page as it matches `/gifts/{id}`.
 */
export function isPrivatePath(pathname: string): boolean {
  const path = pathname.toLowerCase();
  return PRIVATE_PREFIXES.some((prefix) => path.startsWith(prefix.toLowerCase()));
}

export const ROBOTS_TXT = [
  'User-agent: *',
  ...PRIVATE_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
  'Allow: /',
  '',
].join('\n');
