import { NOT_FOUND_ROUTE, OTHER, ROUTE_OWNERS } from 'shared/telemetry';
import { ROUTES_PER_REMOTE } from 'shared/telemetry-labels';
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

it('learns a remote’s routes up to the cap per remote, none owned by another part', () => {
  const known = KnownRoutes.compiled();
  const owned = [...ROUTE_OWNERS.values()].filter((owner) => owner === 'redeem').length;
  const extra = Array.from({ length: ROUTES_PER_REMOTE - owned }, (_, n) => `/redeem-more-${n}`);
  for (const route of extra) expect(known.add(route, 'redeem')).toBe(true);
  expect(known.routeLabel(extra[0] as string, 'redeem')).toBe(extra[0]);
  expect(known.routeLabel(extra[0] as string, 'host')).toBe(extra[0]);

  expect(known.add('/one-too-many', 'redeem')).toBe(false);
  expect(known.routeLabel('/one-too-many', 'redeem')).toBe(OTHER);
  expect(known.add('/game', 'redeem')).toBe(false);
  expect(known.routeLabel('/game', 'redeem')).toBe(OTHER);
  expect(known.add('/host-page', 'host')).toBe(false);
});

it('refuses to start on a registry that gives one remote more routes than the series bound counts', () => {
  const routes = Array.from({ length: ROUTES_PER_REMOTE + 1 }, (_, n): [string, 'content'] => [
    `/page-${n}`,
    'content',
  ]);
  expect(() => KnownRoutes.of(routes.slice(0, ROUTES_PER_REMOTE))).not.toThrow();
  expect(() => KnownRoutes.of(routes)).toThrow(`content more than ${ROUTES_PER_REMOTE} routes`);
});
