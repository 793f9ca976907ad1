/**
 * The parts and routes the API labels as themselves; any other is `other`. Built from the
 * compiled registry of remotes, and open to routes learnt at run time (a remote's published
 * manifest) within ROUTES_PER_REMOTE each, the cap the documented series figure is counted from.
 */
import { HOST_PART, NOT_FOUND_ROUTE, OTHER, PARTS, type PartName, ROUTE_OWNERS } from 'shared/telemetry';
import { ROUTES_PER_REMOTE } from 'shared/telemetry-labels';

const KNOWN_PARTS: ReadonlySet<string> = new Set(PARTS);

export class KnownRoutes {
  private readonly owners = new Map<string, PartName>([[NOT_FOUND_ROUTE, HOST_PART]]);
  private readonly counts = new Map<PartName, number>();

  /** The registry's routes, each with the remote that owns it; throws when one remote has more than the cap. */
  static compiled(): KnownRoutes {
    return KnownRoutes.of(ROUTE_OWNERS);
  }

  /** `owners`' routes, each with its part (the host's own are implied); throws past a remote's cap. */
  static of(owners: Iterable<[string, PartName]>): KnownRoutes {
    const known = new KnownRoutes();
    for (const [route, part] of owners) {
      if (part === HOST_PART) continue;
      if (!known.add(route, part))
        throw new Error(
          `telemetry: the registry gives ${part} more than ${ROUTES_PER_REMOTE} routes (ROUTES_PER_REMOTE), or ${route} to two remotes`,
        );
    }
    return known;
  }

  /** `name` as a part the labels may hold, or undefined. */
  part(name: string): PartName | undefined {
    return KNOWN_PARTS.has(name) ? (name as PartName) : undefined;
  }

  /**
   * Labels `route` as itself for `part` from now on. False, and nothing learnt, when the part is
   * the host (its one route is the not-found route) or unknown, another part owns the route, or
   * the part holds its cap of routes.
   */
  add(route: string, part: PartName): boolean {
    const owner = this.owners.get(route);
    if (owner !== undefined) return owner === part;
    const count = this.counts.get(part) ?? 0;
    if (part === HOST_PART || !KNOWN_PARTS.has(part) || count >= ROUTES_PER_REMOTE) return false;
    this.owners.set(route, part);
    this.counts.set(part, count + 1);
    return true;
  }

  /** Whether `route` is labelled as itself for `part`: the part owns it, or the part is the host, on any known route. */
  has(route: string, part: PartName): boolean {
    const owner = this.owners.get(route);
    return owner !== undefined && (owner === part || part === HOST_PART);
  }

  /** The route label of an event of `part` on `route` (a remote elsewhere than on its own routes counts as `other`). */
  routeLabel(route: string, part: PartName): string {
    return this.has(route, part) ? route : OTHER;
  }

  /** The route label of an event of no part (a CSP violation): the route itself when some part owns it. */
  anyRouteLabel(route: string): string {
    return this.owners.has(route) ? route : OTHER;
  }
}
