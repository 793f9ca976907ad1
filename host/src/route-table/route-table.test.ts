import { HttpError } from 'shared/http-error';
import { RouteTable, validationError, type RouteDefinition } from './route-table';

const VALID_ID = 'Ab3_-xYz0123456789abcdEF';
const REGISTRY = RouteTable.registry();
const ROUTES = REGISTRY.routes;
const matchRoute = (pathname: string) => REGISTRY.matchRoute(pathname);
const resolvePath = (pathname: string) => REGISTRY.resolvePath(pathname);

describe('route table', () => {
  it('maps every seed route to its remote module and layout', () => {
    expect(ROUTES.map(({ path, remote, module, layout }) => ({ path, remote, module, layout }))).toEqual([
      { path: '/', remote: 'content', module: 'HomePage', layout: 'default' },
      { path: '/about', remote: 'content', module: 'AboutPage', layout: 'default' },
      { path: '/game', remote: 'gifts', module: 'GamePage', layout: 'default' },
      { path: '/gifts/:giftId', remote: 'gifts', module: 'GiftPage', layout: 'no-footer' },
      { path: '/privacy-policy', remote: 'content', module: 'PrivacyPolicyPage', layout: 'default' },
      { path: '/redeem/:redeemId', remote: 'redeem', module: 'RedeemPage', layout: 'redeem' },
      { path: '/terms', remote: 'content', module: 'TermsPage', layout: 'default' },
    ]);
  });

  it('names the data a page needs, by a parameter of its path that a validator checks first', () => {
    expect(ROUTES.filter((route) => route.data).map(({ path, data }) => ({ path, data }))).toEqual([
      { path: '/gifts/:giftId', data: { query: 'gift', param: 'giftId' } },
      { path: '/redeem/:redeemId', data: { query: 'redeem', param: 'redeemId' } },
    ]);
    for (const route of ROUTES.filter((candidate) => candidate.data)) {
      expect(route.path.split('/')).toContain(`:${route.data?.param}`);
      expect(route.validate).toBeDefined();
    }
  });

  it('matches paths with their parameters', () => {
    expect(matchRoute(`/gifts/${VALID_ID}`)).toMatchObject({
      route: { module: 'GiftPage' },
      params: { giftId: VALID_ID },
    });
    expect(matchRoute(`/redeem/${VALID_ID}`)).toMatchObject({
      route: { module: 'RedeemPage' },
      params: { redeemId: VALID_ID },
    });
    expect(matchRoute('/about/')).toMatchObject({ route: { module: 'AboutPage' } });
    expect(matchRoute('/gifts')).toBeUndefined();
    expect(matchRoute('/about/team')).toBeUndefined();
  });

  it('answers an unknown path with 404 and the exact unknown-route message', () => {
    const result = resolvePath('/no-such-page');
    expect(result).toBeInstanceOf(HttpError);
    expect(result).toMatchObject({ statusCode: 404, message: 'Page not found: /no-such-page' });
  });

  it('answers a malformed id with the plain validator failure: 404 and capitalised message', () => {
    expect(resolvePath('/gifts/not-an-id')).toMatchObject({
      statusCode: 404,
      message: 'Page Not Found: /gifts/not-an-id',
    });
    expect(resolvePath('/redeem/x')).toMatchObject({ statusCode: 404, message: 'Page Not Found: /redeem/x' });
    expect(resolvePath(`/gifts/${VALID_ID}x`)).toMatchObject({ statusCode: 404 });
    expect(resolvePath(`/gifts/${VALID_ID.slice(1)}+`)).toMatchObject({ statusCode: 404 });
  });

  it('accepts well-formed ids', () => {
    expect(resolvePath(`/gifts/${VALID_ID}`)).toMatchObject({ route: { module: 'GiftPage' } });
    expect(resolvePath(`/redeem/${VALID_ID}`)).toMatchObject({ route: { module: 'RedeemPage' } });
  });

  it("uses a validator's own status and message when it gives them", () => {
    const route: RouteDefinition = {
      path: '/gifts/:giftId',
      remote: 'gifts',
      module: 'GiftPage',
      layout: 'no-footer',
      title: 'Gift',
      validate: () => ({ statusCode: 410, message: 'This gift link has expired' }),
    };
    expect(validationError(route, { giftId: 'x' }, '/gifts/x')).toMatchObject({
      statusCode: 410,
      message: 'This gift link has expired',
    });
  });

  it('shows a hostile or badly encoded path as decoded text, or as it came when it cannot be decoded', () => {
    expect(resolvePath('/%3Cscript%3Ealert(1)%3C%2Fscript%3E')).toMatchObject({
      message: 'Page not found: /<script>alert(1)</script>',
    });
    expect(resolvePath('/%E0%A4%A')).toMatchObject({ statusCode: 404, message: 'Page not found: /%E0%A4%A' });
  });
});
