/** @jest-environment node */
import { RouteTable } from '../src/route-table/route-table';
import { Robots } from './robots';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const table = RouteTable.registry();
const robots = new Robots(table.routes);

describe('Robots.isPrivatePath', () => {
  it.each([`/gifts/${ID}`, `/redeem/${ID}`, '/gifts/short', `/GIFTS/${ID}`, `/Redeem/${ID}`, `/gIfTs/${ID}/extra`])(
    'keeps %s out of search engines',
    (path) => {
      expect(robots.isPrivatePath(path)).toBe(true);
    },
  );

  it.each(['/', '/about', '/GAME', '/giftsx', '/terms'])('leaves %s open to crawlers', (path) => {
    expect(robots.isPrivatePath(path)).toBe(false);
  });

  it('covers every path the route table gives a private page, in any letter case', () => {
    expect(robots.privatePrefixes.length).toBeGreaterThan(0);
    for (const path of [`/gifts/${ID}`, `/GIFTS/${ID}`, `/redeem/${ID}`, `/REDEEM/${ID}`]) {
      const resolved = table.resolvePath(path);
      expect([path, 'route' in resolved && resolved.route.noindex]).toEqual([path, true]);
      expect([path, robots.isPrivatePath(path)]).toEqual([path, true]);
    }
  });

  it('follows the table it is given: a composed private route is disallowed too', () => {
    const composed = new Robots([...table.routes, { path: '/news/:storyId', noindex: true }]);
    expect(composed.isPrivatePath('/NEWS/1')).toBe(true);
    expect(composed.text).toContain('Disallow: /news/\n');
  });

  it('disallows a private path without a parameter alone, and takes a matched page from its route', () => {
    const composed = new Robots([...table.routes, { path: '/g', noindex: true }]);
    expect(composed.text).toBe('User-agent: *\nDisallow: /gifts/\nDisallow: /redeem/\nDisallow: /g$\nAllow: /\n');
    expect(composed.isPrivatePath('/game', { noindex: undefined })).toBe(false);
    expect(composed.isPrivatePath('/g', { noindex: true })).toBe(true);
    expect(composed.isPrivatePath('/gifts/extra/path')).toBe(true);
  });

  it('disallows no prefix that an open route lies under, nor the whole site', () => {
    const composed = new Robots([
      { path: '/stories/:storyId', noindex: true },
      { path: '/stories/new' },
      { path: '/:slug', noindex: true },
      { path: '/about' },
    ]);
    expect(composed.text).toBe('User-agent: *\nAllow: /\n');
    expect(composed.isPrivatePath('/stories/x/y')).toBe(false);
    expect(composed.isPrivatePath('/x/y')).toBe(false);
  });
});
