import { matchPath, matchRoutes } from 'react-router-dom';
import { REMOTE_NAMES, REMOTES, type RemoteSpec } from './remotes';
import { matchesRoutePattern, RouteMatcher } from './route-pattern';
import { ROUTE_PATTERNS } from './telemetry';

const registry = new RouteMatcher(ROUTE_PATTERNS);

describe('the registry’s route pattern of a path', () => {
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
    expect(registry.patternOfPath(path)).toBe(pattern);
  });

  it('keeps the pattern of a page’s address, never its id or query', () => {
    expect(registry.patternOfUrl('https://gifts.example.com/gifts/AbCdEfGhIjKlMnOpQrStUvWx?x=1#y')).toBe(
      '/gifts/:giftId',
    );
  });

  it('is * for what is not a URL', () => {
    expect(registry.patternOfUrl('not a url')).toBe('*');
  });

  it('ranks a static segment above a parameter, whatever the order given', () => {
    const matcher = new RouteMatcher(['/gifts/:giftId', '/gifts/new']);
    expect(matcher.patternOfPath('/gifts/new')).toBe('/gifts/new');
    expect(matcher.patternOfPath('/gifts/other')).toBe('/gifts/:giftId');
  });
});

const remoteRoutes = REMOTE_NAMES.flatMap((name) =>
  Object.values((REMOTES[name] as RemoteSpec).exposes).flatMap((module) => module.routes.map((route) => route.path)),
);
const TRICKY_PATHS = [
  '/',
  '//',
  '',
  '/about',
  '/About/',
  '/about//',
  '//about',
  '/about/x',
  '/abou',
  '/about.',
  '/%61bout',
  '/gifts/AbCdEfGhIjKlMnOpQrStUvWx',
  '/gifts/AbCd/',
  '/gifts/',
  '/gifts//',
  '/gifts/a%2Fb',
  '/gifts/a/b',
  '/GIFTS/x',
  '/redeem/%E2%9C%93',
  '/redeem/%zz',
  '/game.',
  '/terms?x=1',
  '/privacy-policy/',
  '/privacy_policy',
];
const samplesOf = (route: string) => [
  route,
  route.replace(/:[^/]+/g, 'AbCdEfGhIjKlMnOpQrStUvWx'),
  `${route.replace(/:[^/]+/g, 'x')}/`,
  route.toUpperCase().replace(/:[^/]+/g, 'y'),
];

describe('the shared matcher and react-router', () => {
  it.each(remoteRoutes)('agree on whether paths are pages of %s', (route) => {
    for (const path of [...TRICKY_PATHS, ...remoteRoutes.flatMap(samplesOf)]) {
      expect([path, matchesRoutePattern(route, path)]).toEqual([path, matchPath(route, path) !== null]);
    }
  });

  it('agree on which of the registry’s routes shows each path', () => {
    const routes = ROUTE_PATTERNS.filter((pattern) => pattern !== '*').map((path) => ({ path }));
    for (const path of [...TRICKY_PATHS, ...remoteRoutes.flatMap(samplesOf)]) {
      const routed = matchRoutes(routes, path)?.[0]?.route.path ?? '*';
      expect([path, registry.patternOfPath(path)]).toEqual([path, routed]);
    }
  });
});
