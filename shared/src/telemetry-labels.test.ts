import { REMOTE_NAMES } from './remotes';
import { ROUTE_OWNERS } from './telemetry';
import {
  errorPageStatusLabel,
  REMOTE_LABELS,
  ROUTE_LABELS,
  ROUTE_PART_PAIRS,
  ROUTES_PER_REMOTE,
} from './telemetry-labels';

it('keeps the statuses an operator acts on, and any other as its class', () => {
  expect([404, 429, 500, 503].map(errorPageStatusLabel)).toEqual(['404', '429', '500', '503']);
  expect([400, 410, 418, 499].map(errorPageStatusLabel)).toEqual(['4xx', '4xx', '4xx', '4xx']);
  expect([501, 502, 504, 599].map(errorPageStatusLabel)).toEqual(['5xx', '5xx', '5xx', '5xx']);
});

it('counts the route labels from the cap per remote, which every remote of the registry fits', () => {
  for (const remote of REMOTE_NAMES)
    expect([...ROUTE_OWNERS.values()].filter((owner) => owner === remote).length).toBeLessThanOrEqual(
      ROUTES_PER_REMOTE,
    );
  const remotes = REMOTE_NAMES.length;
  // Each remote's routes up to the cap, `*` and `other`.
  expect(ROUTE_LABELS).toBe(remotes * ROUTES_PER_REMOTE + 2);
  // The host on each route label, each remote on its own and `other`, `other` on `other`.
  expect(ROUTE_PART_PAIRS).toBe(ROUTE_LABELS + remotes * ROUTES_PER_REMOTE + remotes + 1);
  expect(REMOTE_LABELS).toBe(remotes + 1);
});
