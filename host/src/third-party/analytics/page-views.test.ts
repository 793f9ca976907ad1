import { recordAnalytics } from 'shared/testing/analytics';
import { RouteTable } from '../../route-table/route-table';
import { createPageViews, routePatternOf } from './page-views';

const recorded = recordAnalytics();

describe('page views', () => {
  it.each([
    ['/', '/'],
    ['/gifts/Zx9_-aBcDeFgHiJkLmNoPqRs', '/gifts/:giftId'],
    ['/redeem/Zx9_-aBcDeFgHiJkLmNoPqRs', '/redeem/:redeemId'],
    ['/gifts/not-an-id', '*'],
    ['/no-such-page', '*'],
  ])('name %s by its route pattern %s', (path, route) => {
    expect(routePatternOf(RouteTable.registry(), path)).toBe(route);
  });

  it('reach the facade, and the tag manager once it starts: first the page on screen, then each later one', () => {
    const pageViews = createPageViews(new RouteTable([]));
    pageViews.track('/game');
    const tagManager = jest.fn();

    pageViews.forward(tagManager);
    pageViews.track('/gifts/:giftId');

    expect(recorded.routes).toEqual(['/game', '/gifts/:giftId']);
    expect(tagManager.mock.calls).toEqual([['/game'], ['/gifts/:giftId']]);
    expect(pageViews.current()).toBe('/gifts/:giftId');
  });
});
