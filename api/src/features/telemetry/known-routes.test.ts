import { NOT_FOUND_ROUTE, OTHER, ROUTE_OWNERS } from 'shared/telemetry';
import { KnownRoutes } from './known-routes';

it('labels the registry’s routes with the remote that owns them or the host, any other as other', () => {
  const known = KnownRoutes.compiled();
  for (const [route, owner] of ROUTE_OWNERS) {
    expect(known.routeLabel(route, owner)).toBe(route);
    expect(known.routeLabel(route, 'host')).toBe(route);
  }
  expect(known.routeLabel('/game', 'content')).toBe(OTHER);
  expect(known.routeLabel(NOT_FOUND_ROUTE, 'redeem')).toBe(OTHER);
  expect(known.routeLabel('/news', 'host')).toBe(OTHER);
  expect(known.routeLabel('/news', 'gifts')).toBe(OTHER);
  expect(known.anyRouteLabel('/game')).toBe('/game');
  expect(known.anyRouteLabel('/news')).toBe(OTHER);
});

it('knows the registry’s parts only', () => {
  const known = KnownRoutes.compiled();
  expect(['host', 'gifts', 'redeem', 'content'].map((name) => known.part(name))).toEqual([
    'host',
    'gifts',
    'redeem',
    'content',
  ]);
  expect(known.part('news')).toBeUndefined();
});
