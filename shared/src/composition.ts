/**
 * Composing the site at run time (docs/decisions/0047-compose-by-configuration.md): the route
 * table is built from the routes each configured remote publishes in its manifest
 * (`./published-routes`), kept only where the integrator granted the remote that path. The
 * registry (`./remotes`) gives the grants and the routes of the remotes this repository builds,
 * used until a remote's manifest has been read. Universal: no DOM, no Node.
 */
import {
  manifestPublishedRoutes,
  PUBLISHED_ROUTES_LIMITS,
  publishedRoutesOf,
  readPublishedRoutes,
  type PublishedRoute,
} from './published-routes';
import { REMOTE_NAMES, remoteSpec } from './remotes';

/** How many remotes one configuration may compose: each adds requests, series and work per refresh. */
export const MAX_REMOTES = 16;

/** A route of the composed table: a published route and the remote that offers it. */
export interface ComposedRoute extends PublishedRoute {
  readonly remote: string;
}

/** What one configured remote offers, and what it was granted. */
export interface RemoteOffer {
  readonly remote: string;
  /** Its published routes, as `readPublishedRoutes` accepted them. */
  readonly routes: readonly PublishedRoute[];
  /** The path patterns the integrator lets it claim. */
  readonly grants: readonly string[];
}

export interface CompositionRefusal {
  readonly remote: string;
  readonly module?: string;
  readonly path?: string;
  readonly reason: string;
}

export interface Composition {
  /** Sorted by path, as react-router ranks them anyway. */
  readonly routes: ComposedRoute[];
  readonly refusals: CompositionRefusal[];
}

/** The variable that sets a remote's `key`: `remoteVariable('news', 'PATHS')` is REMOTE_NEWS_PATHS. */
export function remoteVariable(remote: string, key: 'URL' | 'PATHS'): string {
  return `REMOTE_${remote.toUpperCase()}_${key}`;
}

/**
 * The URLs a path pattern matches, as a key: parameters are anonymous and letters' case ignored,
 * as the router matches, so `/gifts/:giftId`, `/gifts/:id` and `/Gifts/:id` are one shape and
 * cannot be held by two remotes.
 */
export function pathShape(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? ':' : segment.toLowerCase()))
    .join('/');
}

/** The paths the registry gives a remote this repository builds; none for another. */
export function registryGrants(remote: string): string[] {
  return registryRoutes(remote).map(({ path }) => path);
}

/** The routes a remote of the registry publishes, as a reader accepts them; none for another remote. */
export function registryRoutes(remote: string): PublishedRoute[] {
  const spec = remoteSpec(remote);
  return spec ? readPublishedRoutes(publishedRoutesOf(remote, spec)).routes : [];
}

/** Remotes in composition order: the registry's first, in its order, then the others as given. */
export function compositionOrder(names: Iterable<string>): string[] {
  const given = [...names];
  const registry = REMOTE_NAMES.filter((name) => given.includes(name));
  return [...registry, ...given.filter((name) => !(REMOTE_NAMES as readonly string[]).includes(name))];
}

/** What a manifest gives of a remote's routes (manifestRoutes). */
export interface ManifestRoutes {
  routes: PublishedRoute[];
  refusals: CompositionRefusal[];
  /** The routes document was refused as a whole: `routes` are the ones kept. */
  refusedWhole: boolean;
}

/**
 * The routes the manifest `body` of `remote` publishes; a manifest built before the format offers
 * the registry's routes; a routes document refused whole says nothing, so `kept` stands.
 */
export function manifestRoutes(
  remote: string,
  body: unknown,
  kept: readonly PublishedRoute[] = registryRoutes(remote),
): ManifestRoutes {
  const reading = manifestPublishedRoutes(body, { remote });
  if (!reading) return { routes: registryRoutes(remote), refusals: [], refusedWhole: false };
  const refusals = reading.refusals.map((refusal) => ({ remote, ...refusal }));
  if (reading.remote === undefined) return { routes: [...kept], refusals, refusedWhole: true };
  return { routes: reading.routes, refusals, refusedWhole: false };
}

/** A remote's grant: as configured (`routeGrants`), else the registry's for a remote it names, else none. */
export function grantsOf(
  config: { routeGrants?: Readonly<Record<string, readonly string[]>> },
  remote: string,
): readonly string[] {
  const granted = config.routeGrants;
  return granted && Object.hasOwn(granted, remote) ? (granted[remote] ?? []) : registryGrants(remote);
}

/**
 * Why two remotes' grants overlap, one line per shared shape (`/` granted to content and news);
 * none when each path is granted once.
 */
export function grantProblems(grants: ReadonlyArray<readonly [remote: string, paths: readonly string[]]>): string[] {
  const holders = new Map<string, string>();
  const problems: string[] = [];
  for (const [remote, paths] of grants)
    for (const path of paths) {
      const shape = pathShape(path);
      const holder = holders.get(shape);
      if (holder !== undefined && holder !== remote)
        problems.push(`the path ${path} is granted to both ${holder} and ${remote}`);
      else holders.set(shape, remote);
    }
  return problems;
}

/**
 * The route table of the offers, in their order: a route is kept when its remote was granted its
 * path and no earlier route has its shape; each route left out is named with the reason.
 * Bounded: at most PUBLISHED_ROUTES_LIMITS.routes per offer, MAX_REMOTES offers.
 */
export function composeRoutes(offers: readonly RemoteOffer[]): Composition {
  const routes: ComposedRoute[] = [];
  const refusals: CompositionRefusal[] = [];
  const claimed = new Map<string, ComposedRoute>();
  for (const { remote, routes: offered, grants } of offers.slice(0, MAX_REMOTES)) {
    const granted = new Set(grants);
    for (const route of offered.slice(0, PUBLISHED_ROUTES_LIMITS.routes)) {
      const refuse = (reason: string) => refusals.push({ remote, module: route.module, path: route.path, reason });
      if (!granted.has(route.path)) {
        refuse(
          `the path ${route.path} is not granted to ${remote} (granted: ${grants.length > 0 ? grants.join(', ') : 'none'}; ${remoteVariable(remote, 'PATHS')}, or routeGrants.${remote} in a configuration file, grants paths)`,
        );
        continue;
      }
      const holder = claimed.get(pathShape(route.path));
      if (holder) {
        refuse(`the path ${route.path} is already ${holder.remote}'s (${holder.module})`);
        continue;
      }
      const composed: ComposedRoute = { ...route, remote };
      claimed.set(pathShape(route.path), composed);
      routes.push(composed);
    }
  }
  routes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { routes, refusals };
}

/** A refusal as one log line's message. */
export function refusalText({ remote, module, path, reason }: CompositionRefusal): string {
  const what = path ? `route ${path}${module ? ` (${module})` : ''}` : module ? `module ${module}` : 'routes';
  return `The ${remote} remote's ${what} is left out: ${reason}`;
}
