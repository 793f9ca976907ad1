/**
 * What the API learns of the routes the configured remotes publish in their manifests
 * (shared/published-routes), composed by the host's rules (shared/composition: a route is kept
 * where the remote was granted its path and no earlier remote holds its shape), so that a page
 * of a remote added since the API was built is counted under its route and remote. Each remote's
 * stable build is read at its manifest URL and its running canary at that build's own copy, each
 * on its own: a manifest that cannot be read, or whose routes document is refused whole, keeps
 * what it gave, the stable build's starting from the registry's routes (an added remote's from
 * none); one without the field offers the registry's routes, as the host's server takes them.
 * Each refusal is logged once per change.
 */
import { type FastifyBaseLogger } from 'fastify';
import {
  type ComposedRoute,
  type CompositionRefusal,
  composeRoutes,
  compositionOrder,
  grantsOf,
  manifestRoutes,
  refusalText,
  registryRoutes,
} from 'shared/composition';
import { buildManifestUrl } from 'shared/deployment';
import { type PublishedRoute } from 'shared/published-routes';
import { MAX_LEARNED_ROUTES } from 'shared/telemetry-labels';
import { BUILDS_FETCH_TIMEOUT_MS } from './build-registry';
import { getBoundedJson } from 'server/bounded-fetch';
import { type KnownRoutes } from './known-routes';

/** What a manifest may weigh at most; a larger answer is dropped unread. */
export const MAX_MANIFEST_BYTES = 512 * 1024;

export interface RouteLearnerOptions {
  /** Each configured remote's manifest URL; composed in compositionOrder. */
  manifests: Readonly<Record<string, string>>;
  /** The grants configured (REMOTE_<NAME>_PATHS); a registry remote without one has the registry's. */
  grants: Readonly<Record<string, readonly string[]>>;
  routes: KnownRoutes;
  /** The canary build each remote's deployment runs now, if any. */
  canaryOf: (remote: string) => string | undefined;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  timeoutMs?: number;
}

/** What one manifest of a remote (its stable build's, or its canary's copy) gave when last read. */
interface ManifestRoutes {
  routes: PublishedRoute[];
  refusals: CompositionRefusal[];
  /** Why the last read failed; undefined while reads succeed. */
  failure: string | undefined;
}

/** A remote's current builds' manifests, by URL, the stable build's first. */
type RemoteRoutes = Map<string, ManifestRoutes>;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A manifest not read yet: the stable build's offers the registry's routes (none for an added remote), a canary's none. */
const unread = (routes: PublishedRoute[]): ManifestRoutes => ({ routes, refusals: [], failure: undefined });

/** What a manifest read gives, as the host's server reads it (shared/composition's manifestRoutes). */
function readingOf(remote: string, manifest: unknown, known: ManifestRoutes): ManifestRoutes {
  const { routes, refusals } = manifestRoutes(remote, manifest, known.routes);
  return { routes, refusals, failure: undefined };
}

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
      compositionOrder(Object.keys(options.manifests)).map((remote) => [
        remote,
        new Map([[options.manifests[remote] as string, unread(registryRoutes(remote))]]),
      ]),
    );
    this.compose();
  }

  /** Reads every remote's manifests, then composes the table (or joins the refresh under way); never rejects. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      await Promise.all([...this.remotes.keys()].map((remote) => this.read(remote)));
      this.compose();
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /**
   * Reads each of the remote's current manifests on its own: one that cannot be read (a canary's
   * copy not uploaded yet, a remote down) keeps what it gave, and is named once until it reads again.
   */
  private async read(remote: string): Promise<void> {
    const root = this.options.manifests[remote] as string;
    const canary = this.options.canaryOf(remote);
    const urls = [root, ...(canary === undefined ? [] : [buildManifestUrl(root, canary)])];
    const timeoutMs = this.options.timeoutMs ?? BUILDS_FETCH_TIMEOUT_MS;
    const results = await Promise.allSettled(urls.map((url) => getBoundedJson(url, timeoutMs, MAX_MANIFEST_BYTES)));
    const before = this.remotes.get(remote);
    const now: RemoteRoutes = new Map();
    urls.forEach((url, index) => {
      const known = before?.get(url) ?? unread(url === root ? registryRoutes(remote) : []);
      const result = results[index] as PromiseSettledResult<unknown>;
      const reading =
        result.status === 'fulfilled'
          ? readingOf(remote, result.value, known)
          : { ...known, failure: messageOf(result.reason) };
      this.logFailure(remote, url, known, reading);
      now.set(url, reading);
    });
    this.remotes.set(remote, now);
  }

  private logFailure(remote: string, url: string, before: ManifestRoutes, now: ManifestRoutes): void {
    if (now.failure !== undefined && before.failure === undefined)
      this.options.log.warn(
        { remote, manifest: url, reason: now.failure, known: now.routes.length },
        `routes: cannot read the manifest ${url}; the routes it gave are kept`,
      );
    else if (now.failure === undefined && before.failure !== undefined)
      this.options.log.info({ remote, manifest: url }, `routes: the manifest ${url} can be read again`);
  }

  /** Composes the remotes' routes into the known table, logging the table and each refusal when they change. */
  private compose(): void {
    const remotes = [...this.remotes.keys()];
    const { routes, refusals } = composeRoutes(
      remotes.map((remote) => ({
        remote,
        routes: unionOf([...(this.remotes.get(remote)?.values() ?? [])]),
        grants: grantsOf({ routeGrants: this.options.grants }, remote),
      })),
    );
    // The cap keeps the first remotes' routes, in the order they are configured.
    const ordered = remotes.flatMap((remote) => routes.filter((route) => route.remote === remote));
    const beyond = this.options.routes.learn(ordered);
    const all = [
      ...[...this.remotes.values()].flatMap((files) => [...files.values()].flatMap(({ refusals: read }) => read)),
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
