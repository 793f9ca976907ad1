/** @jest-environment node */
import { resolvePath } from '../src/route-table/route-table';
import { isPrivatePath, PRIVATE_PREFIXES } from './robots';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';

describe('isPrivatePath', () => {
  it.each([`/gifts/${ID}`, `/redeem/${ID}`, '/gifts/short', `/GIFTS/${ID}`, `/Redeem/${ID}`, `/gIfTs/${ID}/extra`])(
    'keeps %s out of search engines',
    (path) => {
      expect(isPrivatePath(path)).toBe(true);
    },
  );

  it.each(['/', '/about', '/GAME', '/giftsx', '/terms'])('leaves %s open to crawlers', (path) => {
    expect(isPrivatePath(path)).toBe(false);
  });

  it('covers every path the route table gives a private page, in any letter case', () => {
    expect(PRIVATE_PREFIXES.length).toBeGreaterThan(0);
    for (const path of [`/gifts/${ID}`, `/GIFTS/${ID}`, `/redeem/${ID}`, `/REDEEM/${ID}`]) {
      const resolved = resolvePath(path);
      expect([path, 'route' in resolved && resolved.route.noindex]).toEqual([path, true]);
      expect([path, isPrivatePath(path)]).toEqual([path, true]);
    }
  });
});
