/**
 * The parts and routes the API labels as themselves; any other is `other`, so a page that shows a
 * route or a remote the API does not know adds no series and loses no event. The parts are the
 * host and the configured remotes; the routes are the registry's, always, and those learned from
 * the remotes' manifests (route-learner.ts), at most MAX_LEARNED_ROUTES beyond the registry's:
 * the sets the documented series figure is counted from.
 */
import { type ComposedRoute } from 'shared/composition';
import { HOST_PART, OTHER, PARTS, ROUTE_OWNERS } from 'shared/telemetry';
import { MAX_LEARNED_ROUTES } from 'shared/telemetry-labels';
import { RouteMatcher } from 'shared/route-pattern';

export class KnownRoutes {
  private readonly parts: ReadonlySet<string>;
  private owners: ReadonlyMap<string, string> = ROUTE_OWNERS;
  private matcher = new RouteMatcher(ROUTE_OWNERS.keys());

  /** `remotes`: the remotes configured beyond the registry's, which are parts as well. */
  constructor(remotes: readonly string[] = []) {
    this.parts = new Set([...PARTS, ...remotes]);
  }

  /** The registry's routes and parts only. */
  static compiled(): KnownRoutes {
    return new KnownRoutes();
  }

  /**
   * Makes the table the registry's routes and `routes` (a composition, its routes in the order
   * they are to be kept): a registry path keeps its label whichever remote holds it, and at most
   * MAX_LEARNED_ROUTES other paths are learned. Gives the routes beyond that cap, which count as
   * `other`.
   */
  learn(routes: readonly ComposedRoute[]): ComposedRoute[] {
    const owners = new Map<string, string>(ROUTE_OWNERS);
    const beyond: ComposedRoute[] = [];
    let learned = 0;
    for (const route of routes) {
      if (!this.parts.has(route.remote) || owners.get(route.path) === route.remote) continue;
      if (!ROUTE_OWNERS.has(route.path) && learned >= MAX_LEARNED_ROUTES) {
        beyond.push(route);
        continue;
      }
      if (!ROUTE_OWNERS.has(route.path)) learned += 1;
      owners.set(route.path, route.remote);
    }
    this.owners = owners;
    this.matcher = new RouteMatcher(owners.keys());
    return beyond;
  }

  /** `name` when it is a part the labels may hold, or undefined. */
  part(name: string): string | undefined {
    return this.parts.has(name) ? name : undefined;
  }

  /** Whether `route` is labelled as itself for `part`: the part owns it, or the part is the host, on any known route. */
  has(route: string, part: string): boolean {
    const owner = this.owners.get(route);
    return owner !== undefined && (owner === part || part === HOST_PART);
  }

  /** The route label of an event of `part` on `route` (a remote elsewhere than on its own routes counts as `other`). */
  routeLabel(route: string, part: string): string {
    return this.has(route, part) ? route : OTHER;
  }

  /** The known route a page's URL shows (a CSP report's `documentURL`); `*` when none matches, or it is no URL. */
  patternOfUrl(url: string): string {
    return this.matcher.patternOfUrl(url);
  }

  /** The route label of an event of no part (a CSP violation): the route itself when some part owns it. */
  anyRouteLabel(route: string): string {
    return this.owners.has(route) ? route : OTHER;
  }
}
