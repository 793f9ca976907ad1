/** The one spelling of a route's path pages are kept under: a path is the client's to choose, so others get a 308. */
import type { RouteMatch, RouteTable } from '../src/route-table/route-table';

export interface CanonicalMatch {
  match: RouteMatch;
  canonical: string;
}

const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;

/** As a browser resolves a link. */
function withoutEmptyOrDotSegments(pathname: string): string {
  const segments: string[] = [];
  for (const segment of pathname.split('/')) {
    if (segment === '' || DOT.test(segment)) continue;
    if (DOT_DOT.test(segment)) segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** Parameters keep their case (ids are case-sensitive), encoded so they read back the same. */
function spell({ route, params }: RouteMatch): string | undefined {
  const segments: string[] = [];
  for (const segment of route.path.split('/').filter(Boolean)) {
    if (segment === '*') segments.push(...(params['*'] ?? '').split('/').filter(Boolean).map(encodeURIComponent));
    else if (!segment.startsWith(':')) segments.push(segment);
    else {
      const value = params[segment.slice(1).replace(/\?$/, '')];
      if (value !== undefined) segments.push(encodeURIComponent(value));
      else if (!segment.endsWith('?')) return undefined;
    }
  }
  return `/${segments.join('/')}`;
}

/** A canonical path starts with one `/` and a segment of the table's, so a redirect never leaves the site. */
export function canonicalMatch(table: RouteTable, pathname: string): CanonicalMatch | undefined {
  const match = table.matchRoute(withoutEmptyOrDotSegments(pathname));
  const canonical = match && spell(match);
  if (!match || canonical === undefined || canonical.startsWith('//')) return undefined;
  return { match, canonical };
}

/** Encoded where a Location header needs it. */
export function queryOf(url = ''): string {
  const start = url.indexOf('?');
  if (start === -1) return '';
  const query = url.slice(start).split('#')[0] ?? '';
  // A request line's bytes arrive as latin1 characters.
  return query.replace(/[^\x21-\x7e]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
