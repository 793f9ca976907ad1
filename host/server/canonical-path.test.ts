/**
 * @jest-environment node
 *
 * The canonical path of a route: what every spelling the router matches is sent to.
 */
import { RouteTable } from '../src/route-table/route-table';
import { canonicalMatch as matchIn, queryOf } from './canonical-path';

const TABLE = RouteTable.registry();
const canonicalMatch = (path: string) => matchIn(TABLE, path);

const ID = 'AbCdEfGhIjKlMnOp0123_-xy';

describe('canonicalMatch', () => {
  it.each([
    ['/about', '/about'],
    ['/About', '/about'],
    ['/about//////', '/about'],
    ['/%61bout', '/about'],
    ['/%61BOUT/', '/about'],
    ['//about', '/about'],
    ['/x/../about', '/about'],
    ['/about/.', '/about'],
    ['/%2e/about/%2E%2E/about', '/about'],
    ['/', '/'],
    ['//', '/'],
    ['/..', '/'],
    [`/GIFTS/${ID}/`, `/gifts/${ID}`],
    [`/gifts/%41${ID.slice(1)}`, `/gifts/${ID}`],
    ['/gifts/a%2Fb', '/gifts/a%2Fb'],
    ['/redeem/Some%20Id', '/redeem/Some%20Id'],
  ])('spells %s as %s', (path, canonical) => {
    expect(canonicalMatch(path)?.canonical).toBe(canonical);
  });

  it('keeps the letter case of an id: ids are case-sensitive', () => {
    expect(canonicalMatch(`/gifts/${ID}`)?.match.params).toEqual({ giftId: ID });
    expect(canonicalMatch(`/gifts/${ID.toLowerCase()}`)?.canonical).toBe(`/gifts/${ID.toLowerCase()}`);
  });

  it.each(['//evil.com', '//evil.com/about', '/..//evil.com', '/%2F%2Fevil.com', '/about/extra', '/%E0%A4%A'])(
    'names no route for %s, so nothing is redirected',
    (path) => {
      expect(canonicalMatch(path)).toBeUndefined();
    },
  );

  it('gives a canonical path that is its own', () => {
    for (const path of ['/About/', `/GIFTS/${ID}`, '/gifts/a%2Fb', '/Redeem/x%20y']) {
      const canonical = canonicalMatch(path)?.canonical ?? '';
      expect(canonicalMatch(canonical)?.canonical).toBe(canonical);
    }
  });
});

describe('queryOf', () => {
  it('gives the query string with its ?, or nothing', () => {
    expect(queryOf('/about?from=home&x=%20')).toBe('?from=home&x=%20');
    expect(queryOf('/about')).toBe('');
    expect(queryOf(undefined)).toBe('');
  });

  it('percent-encodes each byte a Location header cannot carry as it is', () => {
    expect(queryOf('/about?q=a b\u00e9"')).toBe('?q=a%20b%E9"');
  });
});
