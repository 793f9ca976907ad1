/**
 * The one spelling of a route's path that the host's server renders and keeps pages under. The
 * router matches a path whatever its letter case, percent-encoding and trailing slashes; a path is
 * the client's to choose, so every other spelling of a route's path is sent to this one (a 308)
 * instead of being rendered and kept as a page of its own.
 */
import type { RouteMatch, RouteTable } from '../src/route-table/route-table';

/** A path's route and the path's canonical spelling. */
export interface CanonicalMatch {
  match: RouteMatch;
  /** The route's pattern with its parameters filled in: the pattern's letters, each parameter as given. */
  canonical: string;
}

const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;

/** The path with empty segments dropped and dot segments resolved, as a browser resolves a link. */
function withoutEmptyOrDotSegments(pathname: string): string {
  const segments: string[] = [];
  for (const segment of pathname.split('/')) {
    if (segment === '' || DOT.test(segment)) continue;
    if (DOT_DOT.test(segment)) segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/**
 * The route's pattern spelled with `params`: a parameter keeps its letter case (ids are
 * case-sensitive) and is percent-encoded, so its value reads back the same. Undefined for a
 * pattern it cannot spell (a parameter without a value).
 */
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

/**
 * The route `pathname` names in `table` and that route's canonical path, or undefined when it names none.
 * The canonical path starts with one `/` and a segment of the route table's or an encoded
 * parameter, so a redirect to it never leaves the site (`//evil.com` names no route).
 */
export function canonicalMatch(table: RouteTable, pathname: string): CanonicalMatch | undefined {
  const match = table.matchRoute(withoutEmptyOrDotSegments(pathname));
  const canonical = match && spell(match);
  if (!match || canonical === undefined || canonical.startsWith('//')) return undefined;
  return { match, canonical };
}

/** The query string of a request's URL (with its `?`), percent-encoded where a Location header needs it. */
export function queryOf(url = ''): string {
  const start = url.indexOf('?');
  if (start === -1) return '';
  const query = url.slice(start).split('#')[0] ?? '';
  // A request line's bytes arrive as latin1 characters: each byte outside printable ASCII is encoded as itself.
  return query.replace(/[^\x21-\x7e]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
