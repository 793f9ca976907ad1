/**
 * What the API learns of the routes the configured remotes publish in their manifests
 * (shared/published-routes), composed by the host's rules (shared/composition: a route is kept
 * where the remote was granted its path and no earlier remote holds its shape), so that a page
 * of a remote added since the API was built is counted under its route and remote. Each remote's
 * stable build is read at its manifest URL and its running canary at that build's own copy; a
 * remote that cannot be read keeps what was learned, a registry remote starting from the
 * registry's routes, an added one from none. Each refusal is logged once per change.
 */
import { type FastifyBaseLogger } from 'fastify';
import {
  type ComposedRoute,
  type CompositionRefusal,
  composeRoutes,
  grantsOf,
  refusalText,
  registryRoutes,
} from 'shared/composition';
import { buildManifestUrl } from 'shared/deployment';
import { manifestPublishedRoutes, type PublishedRoute } from 'shared/published-routes';
import { MAX_LEARNED_ROUTES } from 'shared/telemetry-labels';
import { BUILDS_FETCH_TIMEOUT_MS } from './build-registry';
import { getJson } from './fetch-json';
import { type KnownRoutes } from './known-routes';

/** What a manifest may weigh at most; a larger answer is dropped unread. */
export const MAX_MANIFEST_BYTES = 512 * 1024;

export interface RouteLearnerOptions {
  /** Each configured remote's manifest URL, in composition order: the registry's remotes, then the added ones. */
  manifests: Readonly<Record<string, string>>;
  /** The grants configured (REMOTE_<NAME>_PATHS); a registry remote without one has the registry's. */
  grants: Readonly<Record<string, readonly string[]>>;
  routes: KnownRoutes;
  /** The canary build each remote's deployment runs now, if any. */
  canaryOf: (remote: string) => string | undefined;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  timeoutMs?: number;
}

interface RemoteRoutes {
  routes: PublishedRoute[];
  refusals: CompositionRefusal[];
  /** Why the last read failed; undefined while reads succeed. */
  failure: string | undefined;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A remote's routes from its builds' readings: the stable build's, then the canary's other paths. */
function unionOf(readings: readonly { routes: PublishedRoute[] }[]): PublishedRoute[] {
  const routes: PublishedRoute[] = [];
  for (const reading of readings)
    for (const route of reading.routes) if (!routes.some(({ path }) => path === route.path)) routes.push(route);
  return routes;
}

export class RouteLearner {
  private readonly remotes: Map<string, RemoteRoutes>;
  private logged = '';
  private refreshing: Promise<void> | undefined;

  constructor(private readonly options: RouteLearnerOptions) {
    this.remotes = new Map(
      Object.keys(options.manifests).map((remote) => [
        remote,
        { routes: registryRoutes(remote), refusals: [], failure: undefined },
      ]),
    );
    this.compose();
  }

  /** Reads every remote's manifests, then composes the table (or joins the refresh under way); never rejects. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      await Promise.all([...this.remotes].map(([remote, state]) => this.read(remote, state)));
      this.compose();
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async read(remote: string, state: RemoteRoutes): Promise<void> {
    const root = this.options.manifests[remote] as string;
    const canary = this.options.canaryOf(remote);
    const urls = [root, ...(canary === undefined ? [] : [buildManifestUrl(root, canary)])];
    let failure: string | undefined;
    try {
      const timeoutMs = this.options.timeoutMs ?? BUILDS_FETCH_TIMEOUT_MS;
      const manifests = await Promise.all(urls.map((url) => getJson(url, timeoutMs, MAX_MANIFEST_BYTES)));
      // A build older than the format publishes nothing to learn from: what was known stays.
      const readings = manifests.flatMap((manifest) => manifestPublishedRoutes(manifest, { remote }) ?? []);
      if (readings.length > 0) {
        state.routes = unionOf(readings);
        state.refusals = readings.flatMap(({ refusals }) => refusals.map((refusal) => ({ remote, ...refusal })));
      }
    } catch (error) {
      failure = messageOf(error);
    }
    if (failure !== undefined && state.failure === undefined)
      this.options.log.warn(
        { remote, reason: failure, known: state.routes.length },
        'routes: cannot read the remote’s manifest; keeping the routes known',
      );
    else if (failure === undefined && state.failure !== undefined)
      this.options.log.info({ remote }, 'routes: the remote’s manifest can be read again');
    state.failure = failure;
  }

  /** Composes the remotes' routes into the known table, logging the table and each refusal when they change. */
  private compose(): void {
    const remotes = [...this.remotes.keys()];
    const { routes, refusals } = composeRoutes(
      remotes.map((remote) => ({
        remote,
        routes: this.remotes.get(remote)?.routes ?? [],
        grants: grantsOf({ routeGrants: this.options.grants }, remote),
      })),
    );
    // The cap keeps the first remotes' routes, in the order they are configured.
    const ordered = remotes.flatMap((remote) => routes.filter((route) => route.remote === remote));
    const beyond = this.options.routes.learn(ordered);
    const all = [
      ...[...this.remotes.values()].flatMap(({ refusals: read }) => read),
      ...refusals,
      ...beyond.map(({ remote, module, path }) => ({
        remote,
        module,
        path,
        reason: `the API learns at most ${MAX_LEARNED_ROUTES} routes beyond the registry's: its events count as other`,
      })),
    ];
    this.logChange(
      ordered.filter((route) => !beyond.includes(route)),
      all,
    );
  }

  private logChange(routes: readonly ComposedRoute[], refusals: readonly CompositionRefusal[]): void {
    const table = routes.map(({ path, remote }) => ({ path, remote }));
    const key = JSON.stringify([table, refusals]);
    if (key === this.logged) return;
    this.logged = key;
    for (const refusal of refusals)
      this.options.log.warn({ remote: refusal.remote, path: refusal.path }, refusalText(refusal));
    this.options.log.info({ routes: table }, 'routes: the composition the API labels telemetry with');
  }
}
