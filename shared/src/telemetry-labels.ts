/**
 * The values the API's telemetry labels take, each from a set whose size is known here: a status
 * as itself when it is one an operator acts on, else its class; a route with the part that owns
 * it (or the host, whose layout and error pages are on every route), up to a cap per remote; the
 * builds a part's deployment names. A value outside its set is `other`, so no browser adds a
 * label value.
 */
import { REMOTE_NAMES } from './remotes';

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
 * The most routes the API labels as themselves for one remote: the registry's today, and routes a
 * remote's published manifest names once the API reads them; past it, a route is `other`. Every
 * route label and the documented series figure are counted from this cap, not from the registry,
 * so routes learnt at run time stay within the figure (the registry's remote with the most
 * routes must fit: known-routes in the API checks it as it starts).
 */
export const ROUTES_PER_REMOTE = 4;
/** A route's label: up to ROUTES_PER_REMOTE of each remote's, the host's not-found route and `other`. */
export const ROUTE_LABELS = REMOTE_NAMES.length * ROUTES_PER_REMOTE + 2;
/**
 * The `(route, remote)` pairs a page's event can be labelled with: the host on every route label
 * (its layout and error pages are on every route), each remote on its own routes and on `other`
 * (a route it does not own, or one the API does not know), and `other` on `other` (a part the
 * API does not know).
 */
export const ROUTE_PART_PAIRS = ROUTE_LABELS + REMOTE_NAMES.length * (ROUTES_PER_REMOTE + 1) + 1;
/** A load's or a fallback's `remote`: a remote of the registry, or `other`. */
export const REMOTE_LABELS = REMOTE_NAMES.length + 1;

/** The builds a part's deployment names at once (`shared/deployment`): its current one, its canary and the one before. */
export const DEPLOYMENT_BUILDS = ['id', 'canary', 'previous'] as const;
/** A part's build label: one of its deployment's builds, `unknown` (the page had none) or `other`. */
export const BUILD_LABELS_PER_PART = DEPLOYMENT_BUILDS.length + 2;
