/**
 * The values the API's telemetry labels take, each from a set whose size is known here: a status
 * as itself when it is one an operator acts on, else its class; a route with the part that owns
 * it (or the host, whose layout and error pages are on every route); the builds a part's
 * deployment names. A value outside its set is `other`, so no browser adds a label value.
 */
import { REMOTE_NAMES } from './remotes';
import { ROUTE_OWNERS } from './telemetry';
import { HOST_PART, OTHER, type PartName } from './telemetry-values';

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
 * The route label of `route` seen in `part`: the route itself when the part owns it or is the
 * host, else `other`, so a remote has series on its own routes only and a made-up pair adds none
 * (what a remote does on another's route, an interaction that renders its page, keeps its remote).
 */
export function ownedRouteLabel(route: string, part: PartName): string {
  return part === HOST_PART || ROUTE_OWNERS.get(route) === part ? route : OTHER;
}

/** Every `(route, remote)` label pair `ownedRouteLabel` can give. */
export const ROUTE_PART_LABELS: readonly { route: string; remote: PartName }[] = [
  ...[...ROUTE_OWNERS.keys()].map((route) => ({ route, remote: HOST_PART as PartName })),
  ...[...ROUTE_OWNERS].filter(([, owner]) => owner !== HOST_PART).map(([route, remote]) => ({ route, remote })),
  ...REMOTE_NAMES.map((remote) => ({ route: OTHER, remote: remote as PartName })),
];

/** The builds a part's deployment names at once (`shared/deployment`): its current one, its canary and the one before. */
export const DEPLOYMENT_BUILDS = ['id', 'canary', 'previous'] as const;
/** A part's build label: one of its deployment's builds, `unknown` (the page had none) or `other`. */
export const BUILD_LABELS_PER_PART = DEPLOYMENT_BUILDS.length + 2;
