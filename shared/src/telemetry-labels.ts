/**
 * The values the API's telemetry labels take, each from a set whose size is known here: a status
 * as itself when it is one an operator acts on, else its class; a route with the part that owns
 * it (or the host, whose layout and error pages are on every route); the builds a part's
 * deployment names. A value outside its set is `other`, so no browser adds a
 * label value.
 */
import { REMOTE_NAMES } from './remotes';
import { ROUTE_OWNERS } from './telemetry';
import { HOST_PART } from './telemetry-values';

/** The error pages' statuses kept as themselves: not found, too many requests, failed, unavailable. */
export const ERROR_PAGE_STATUSES = ['404', '429', '500', '503'] as const;
/** Any other error page's status, by its class. */
export const ERROR_PAGE_STATUS_CLASSES = ['4xx', '5xx'] as const;
export const ERROR_PAGE_STATUS_LABELS: readonly string[] = [...ERROR_PAGE_STATUSES, ...ERROR_PAGE_STATUS_CLASSES];

const KEPT_STATUSES: ReadonlySet<string> = new Set(ERROR_PAGE_STATUSES);

/** An error page's status (400 to 599, as the contract takes it) as a label. */
export function errorPageStatusLabel(status: number): string {
  const value = String(status);
  if (KEPT_STATUSES.has(value)) return value;
  return status < 500 ? '4xx' : '5xx';
}

/** The routes a remote of the registry owns (every route pattern but the host's not-found route). */
const REMOTE_ROUTES = [...ROUTE_OWNERS.values()].filter((owner) => owner !== HOST_PART).length;
/** A route's label: a route pattern of the registry (the host's not-found route among them), or `other`. */
export const ROUTE_LABELS = ROUTE_OWNERS.size + 1;
/**
 * The `(route, remote)` pairs a page's event can be labelled with: the host on every route label
 * (its layout and error pages are on every route), each remote on its own routes and on `other`
 * (a route it does not own, or one the API does not know), and `other` on `other` (a part the
 * API does not know).
 */
export const ROUTE_PART_PAIRS = ROUTE_LABELS + REMOTE_ROUTES + REMOTE_NAMES.length + 1;
/** A load's or a fallback's `remote`: a remote of the registry, or `other`. */
export const REMOTE_LABELS = REMOTE_NAMES.length + 1;

/** The builds a part's deployment names at once (`shared/deployment`): its current one, its canary and the one before. */
export const DEPLOYMENT_BUILDS = ['id', 'canary', 'previous'] as const;
/** A part's build label: one of its deployment's builds, `unknown` (the page had none) or `other`. */
export const BUILD_LABELS_PER_PART = DEPLOYMENT_BUILDS.length + 2;
