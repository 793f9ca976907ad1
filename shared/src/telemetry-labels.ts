/**
 * The values the API's telemetry labels take, each from a set whose size is known here: a status
 * as itself when it is one an operator acts on, else its class; a route with the part that owns
 * it (or the host, whose layout and error pages are on every route); the builds a part's
 * deployment names. A value outside its set is `other`, so no browser adds a
 * label value.
 */
import { MAX_REMOTES } from './composition';
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

/**
 * The routes the API learns from the remotes' manifests beyond the registry's, at most, whatever
 * they publish: the rest count as `other` (api known-routes.ts), so the series stay bounded.
 */
export const MAX_LEARNED_ROUTES = 16;
/** The parts a label may name: the host and at most MAX_REMOTES remotes, registry and added ones. */
export const MAX_PARTS = MAX_REMOTES + 1;
/** The routes a remote owns: the registry's (every route pattern but the not-found route) and the learned ones. */
const REMOTE_ROUTES = [...ROUTE_OWNERS.values()].filter((owner) => owner !== HOST_PART).length + MAX_LEARNED_ROUTES;
/** A route's label: a route pattern of the registry (the host's not-found route among them), a learned one, or `other`. */
export const ROUTE_LABELS = ROUTE_OWNERS.size + MAX_LEARNED_ROUTES + 1;
/**
 * The `(route, remote)` pairs a page's event can be labelled with: the host on every route label
 * (its layout and error pages are on every route), each route of a remote with the one remote
 * that owns it, each remote on `other` (a route it does not own, or one the API does not know),
 * and `other` on `other` (a part the API does not know).
 */
export const ROUTE_PART_PAIRS = ROUTE_LABELS + REMOTE_ROUTES + MAX_REMOTES + 1;
/** A load's or a fallback's `remote`: a configured remote, or `other`. */
export const REMOTE_LABELS = MAX_REMOTES + 1;

/** The builds a part's deployment names at once (`shared/deployment`): its current one, its canary and the one before. */
export const DEPLOYMENT_BUILDS = ['id', 'canary', 'previous'] as const;
/** A part's build label: one of its deployment's builds, `unknown` (the page had none) or `other`. */
export const BUILD_LABELS_PER_PART = DEPLOYMENT_BUILDS.length + 2;
