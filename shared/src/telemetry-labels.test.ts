import { MAX_REMOTES } from './composition';
import { ROUTE_OWNERS } from './telemetry';
import {
  errorPageStatusLabel,
  MAX_LEARNED_ROUTES,
  MAX_PARTS,
  REMOTE_LABELS,
  ROUTE_LABELS,
  ROUTE_PART_PAIRS,
} from './telemetry-labels';

it('keeps the statuses an operator acts on, and any other as its class', () => {
  expect([404, 429, 500, 503].map(errorPageStatusLabel)).toEqual(['404', '429', '500', '503']);
  expect([400, 410, 418, 499].map(errorPageStatusLabel)).toEqual(['4xx', '4xx', '4xx', '4xx']);
  expect([501, 502, 504, 599].map(errorPageStatusLabel)).toEqual(['5xx', '5xx', '5xx', '5xx']);
});

it('counts the route labels from the registry and the learned routes, with other', () => {
  const remoteRoutes = [...ROUTE_OWNERS.values()].filter((owner) => owner !== 'host').length + MAX_LEARNED_ROUTES;
  // Every route pattern (the not-found route among them), the learned ones and `other`.
  expect(ROUTE_LABELS).toBe(ROUTE_OWNERS.size + MAX_LEARNED_ROUTES + 1);
  // The host on each route label, each remote on its own and `other`, `other` on `other`.
  expect(ROUTE_PART_PAIRS).toBe(ROUTE_LABELS + remoteRoutes + MAX_REMOTES + 1);
  expect(REMOTE_LABELS).toBe(MAX_REMOTES + 1);
  expect(MAX_PARTS).toBe(MAX_REMOTES + 1);
});
