import { HOST_PART, NOT_FOUND_ROUTE, OTHER, ROUTE_OWNERS, ROUTE_PATTERNS } from './telemetry';
import { errorPageStatusLabel, ownedRouteLabel, ROUTE_PART_LABELS } from './telemetry-labels';

it('keeps the statuses an operator acts on, and any other as its class', () => {
  expect([404, 429, 500, 503].map(errorPageStatusLabel)).toEqual(['404', '429', '500', '503']);
  expect([400, 410, 418, 499].map(errorPageStatusLabel)).toEqual(['4xx', '4xx', '4xx', '4xx']);
  expect([501, 502, 504, 599].map(errorPageStatusLabel)).toEqual(['5xx', '5xx', '5xx', '5xx']);
});

it('labels a route with the remote that owns it or the host, any other remote’s as other', () => {
  expect(ROUTE_OWNERS.get('/game')).toBe('gifts');
  expect(ROUTE_OWNERS.get(NOT_FOUND_ROUTE)).toBe(HOST_PART);
  expect(ownedRouteLabel('/game', 'gifts')).toBe('/game');
  expect(ownedRouteLabel('/game', 'host')).toBe('/game');
  expect(ownedRouteLabel('/game', 'content')).toBe(OTHER);
  expect(ownedRouteLabel(NOT_FOUND_ROUTE, 'redeem')).toBe(OTHER);
});

it('lists every route and remote pair the labels can hold, once each', () => {
  const pairs = ROUTE_PART_LABELS.map(({ route, remote }) => `${route} ${remote}`);
  expect(new Set(pairs).size).toBe(pairs.length);
  for (const route of ROUTE_PATTERNS)
    for (const part of ['host', 'gifts', 'redeem', 'content'] as const)
      expect(pairs).toContain(`${ownedRouteLabel(route, part)} ${part}`);
});
