import { routePatternOfPath, routePatternOfUrl } from './route-pattern';

describe('routePatternOfPath', () => {
  it.each([
    ['/', '/'],
    ['/about', '/about'],
    ['/about/', '/about'],
    ['/ABOUT', '/about'],
    ['/game', '/game'],
    ['/gifts/AbCdEfGhIjKlMnOpQrStUvWx', '/gifts/:giftId'],
    ['/redeem/AbCdEfGhIjKlMnOpQrStUvWx', '/redeem/:redeemId'],
    ['/privacy-policy', '/privacy-policy'],
    ['/terms', '/terms'],
    ['/gifts', '*'],
    ['/gifts/a/b', '*'],
    ['/nowhere', '*'],
  ])('%s is %s', (path, pattern) => {
    expect(routePatternOfPath(path)).toBe(pattern);
  });
});

describe('routePatternOfUrl', () => {
  it('keeps the pattern of a page’s address, never its id or query', () => {
    expect(routePatternOfUrl('https://gifts.example.com/gifts/AbCdEfGhIjKlMnOpQrStUvWx?x=1#y')).toBe('/gifts/:giftId');
  });

  it('is * for what is not a URL', () => {
    expect(routePatternOfUrl('not a url')).toBe('*');
  });
});
