/** Every telemetry label's bounded set: a value outside it is `other`. */
import { MAX_REMOTES } from './composition';
import { ROUTE_OWNERS } from './telemetry';
import { HOST_PART } from './telemetry-values';

export const ERROR_PAGE_STATUSES = ['404', '429', '500', '503'] as const;
export const ERROR_PAGE_STATUS_CLASSES = ['4xx', '5xx'] as const;
export const ERROR_PAGE_STATUS_LABELS: readonly string[] = [...ERROR_PAGE_STATUSES, ...ERROR_PAGE_STATUS_CLASSES];

const KEPT_STATUSES: ReadonlySet<string> = new Set(ERROR_PAGE_STATUSES);

export function errorPageStatusLabel(status: number): string {
  const value = String(status);
  if (KEPT_STATUSES.has(value)) return value;
  return status < 500 ? '4xx' : '5xx';
}

/** Beyond it, learned routes count as `other`, so the series stay bounded. */
export const MAX_LEARNED_ROUTES = 16;
export const MAX_PARTS = MAX_REMOTES + 1;
const REMOTE_ROUTES = [...ROUTE_OWNERS.values()].filter((owner) => owner !== HOST_PART).length + MAX_LEARNED_ROUTES;
export const ROUTE_LABELS = ROUTE_OWNERS.size + MAX_LEARNED_ROUTES + 1;
/** The host on every route, each remote route with its owner, each remote and `other` on `other`. */
export const ROUTE_PART_PAIRS = ROUTE_LABELS + REMOTE_ROUTES + MAX_REMOTES + 1;
export const REMOTE_LABELS = MAX_REMOTES + 1;

export const DEPLOYMENT_BUILDS = ['id', 'canary', 'previous'] as const;
export const BUILD_LABELS_PER_PART = DEPLOYMENT_BUILDS.length + 2;
