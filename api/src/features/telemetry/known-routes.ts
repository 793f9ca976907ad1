/**
 * The parts and routes the API labels as themselves; any other is `other`, so a page that shows a
 * route or a remote the API was not built with adds no series and loses no event. Built from the
 * compiled registry of remotes, the set the documented series figure is counted from.
 */
import { HOST_PART, OTHER, PARTS, type PartName, ROUTE_OWNERS } from 'shared/telemetry';

const KNOWN_PARTS: ReadonlySet<string> = new Set(PARTS);

export class KnownRoutes {
  private constructor(private readonly owners: ReadonlyMap<string, PartName>) {}

  /** The registry's routes, each with the part that owns it. */
  static compiled(): KnownRoutes {
    return new KnownRoutes(ROUTE_OWNERS);
  }

  /** `name` as a part the labels may hold, or undefined. */
  part(name: string): PartName | undefined {
    return KNOWN_PARTS.has(name) ? (name as PartName) : undefined;
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
