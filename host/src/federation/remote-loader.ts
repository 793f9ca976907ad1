/**
 * Loads exposed pages from the remotes named in the runtime configuration, on demand. Failures
 * are not cached, so a retry really tries again. A remote whose build cannot be downloaded after
 * the retries switches to its last known good build (`remoteFallbacks`, last-known-good.ts); see
 * docs/decisions/0051-remote-loading-plugins.md.
 */
import type { ComponentType } from 'react';
import type { RuntimeConfig } from 'shared/runtime-config';
import type { FallbackEnd, LastKnownGoodState } from './last-known-good';
import { isRetriable, loadWithRetries, RETRY_DELAYS_MS, type AttemptPolicy } from './load-attempts';
import { Prefetches, type PreloadOptions } from './prefetches';
import { RemoteSelection, type RemoteSource } from './remote-selection';

export { RETRY_DELAYS_MS };
export type { FallbackEnd, PreloadOptions };

/** The part of the federation runtime this module uses; tests pass their own. */
export interface FederationRuntime {
  registerRemotes(remotes: { name: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
  preloadRemote(options: PreloadOptions[]): Promise<void>;
}

export interface RemoteLoader {
  load(remote: string, module: string): Promise<ComponentType>;
  /** Fetches a remote's entry (and, with a module, that module's files) ahead of need. */
  prefetch(remote: string, module?: string): void;
  /**
   * Runs a page's module once the remote's prefetches are done (`when` may wait for an idle
   * moment), so the route's `load` only renders. Silent until a `load` claims it; a failure is
   * forgotten (that `load` tries again). Once per page per document.
   */
  warm(remote: string, module: string, when?: (run: () => void) => void): void;
  /** Forgets a remote's entry and manifest, so the next load fetches them anew. */
  reset(remote: string): void;
  /** The build a remote is loaded from now (its configuration's, or its fallback's), when known. */
  buildOf(remote: string): string | undefined;
}

/** How one `load()` ended, for telemetry; one that claims a `warm` load is timed from its own call. */
export interface LoadEnd {
  remote: string;
  /** As the runtime names the load: `gifts/GamePage`. */
  id: string;
  /** Retries and the wait for a prefetch in flight included. */
  ms: number;
  retried: boolean;
  ok: boolean;
  error?: unknown;
}

export interface RemoteLoaderOptions {
  config: RuntimeConfig;
  runtime: FederationRuntime;
  retryDelaysMs?: readonly number[];
  /** Once per remote after its first successful load, and again after its first load from a fallback. */
  onRemoteLoaded?: (remote: string, entryUrl: string, build: string | undefined) => void;
  /** Before the fallback is fetched. */
  onFallback?: (fallback: FallbackEnd) => void;
  log?: (message: string, error: unknown) => void;
  onLoadEnd?: (end: LoadEnd) => void;
  /** Each failed attempt that is tried again, before the pause. */
  onLoadRetry?: (error: unknown) => void;
  /** In ms; `performance.now()` unless a test gives its own. */
  now?: () => number;
}

/** A page's load: `claimedAt` once a `load()` asked for it (a `warm` one has none yet). */
interface Loading {
  promise: Promise<ComponentType>;
  /** The manifest the load runs from. */
  entry: string;
  claimedAt?: number;
  retried: boolean;
  ok?: boolean;
}

function pageComponent(module: unknown, id: string): ComponentType {
  const component = (module as { default?: unknown } | null)?.default;
  if (typeof component === 'function' || (typeof component === 'object' && component !== null)) {
    return component as ComponentType;
  }
  throw new Error(`${id} has no default export to render`);
}

/**
 * Our runtime plugin for a remote's last known good build, named after the runtime's
 * `errorLoadRemote` hook: after a page's load failed with a download error, the fallback to load
 * it from, once the remote is switched to it. Its code is a chunk of its own, fetched only then.
 */
function lastKnownGoodPlugin(state: LastKnownGoodState, selection: RemoteSelection) {
  return {
    name: 'p-last-known-good',
    async errorLoadRemote(remote: string, id: string, from: string, error: unknown): Promise<RemoteSource> {
      const fallback = selection.fallbackOf(remote);
      if (!fallback || from === fallback.entry || !isRetriable(error)) throw error;
      await import(/* webpackChunkName: "last-known-good" */ './last-known-good')
        .then(({ switchTo }) => switchTo(state, remote, fallback, id, error))
        .catch(() => Promise.reject(error));
      return fallback;
    },
  };
}

type LoaderParts = {
  options: RemoteLoaderOptions;
  selection: RemoteSelection;
  prefetches: Prefetches;
  policy: AttemptPolicy;
};

/** The pages' loads of one document, by id (`gifts/GamePage`); a failed one is forgotten. */
class PageLoads {
  private readonly modules = new Map<string, Loading>();
  /** Early loads started (by id) or waiting to (`<id> now`, `<id> later`): each at most once. */
  private readonly warming = new Set<string>();
  /** The manifest each remote was last loaded from. */
  private readonly loaded = new Map<string, string>();
  private readonly lastKnownGood: ReturnType<typeof lastKnownGoodPlugin>;
  private readonly now: () => number;

  constructor(private readonly parts: LoaderParts) {
    const { options, selection } = parts;
    this.now = options.now ?? (() => performance.now());
    const log = parts.policy.log;
    const forget = (remote: string) => this.forget(remote);
    const state = { runtime: options.runtime, current: selection.current, forget, log, onFallback: options.onFallback };
    this.lastKnownGood = lastKnownGoodPlugin(state, selection);
  }

  has(id: string): boolean {
    return this.modules.has(id);
  }

  hasAnyOf(remote: string): boolean {
    return [...this.modules.keys()].some((id) => id.startsWith(`${remote}/`));
  }

  load(remote: string, module: string): Promise<ComponentType> {
    const id = `${remote}/${module}`;
    const cached = this.modules.get(id);
    if (!cached) return this.start(remote, module, true).promise;
    if (cached.claimedAt === undefined) {
      // A `warm` load, under way or done: this is the page's real load, reported as one.
      cached.claimedAt = this.now();
      if (cached.ok) this.report(remote, id, cached);
    }
    return cached.promise;
  }

  warm(remote: string, module: string, when?: (run: () => void) => void): void {
    const id = `${remote}/${module}`;
    const how = `${id} ${when ? 'later' : 'now'}`;
    if (this.modules.has(id) || this.warming.has(how)) return;
    this.warming.add(how);
    const schedule = when ?? ((run: () => void) => run());
    void this.parts.prefetches.inFlight(remote).then(() =>
      schedule(() => {
        if (this.modules.has(id) || this.warming.has(id)) return;
        this.warming.add(id);
        this.start(remote, module, false);
      }),
    );
  }

  /** Forgets what the page fetched or loaded of a remote (not the loads under way). */
  forget(remote: string): void {
    for (const [id, loading] of this.modules) if (id.startsWith(`${remote}/`) && loading.ok) this.modules.delete(id);
    for (const key of [...this.warming]) if (key.startsWith(`${remote}/`)) this.warming.delete(key);
    this.parts.prefetches.forget(remote);
  }

  /** Forgets every load of a remote, under way or not. */
  drop(remote: string): void {
    for (const id of [...this.modules.keys()]) if (id.startsWith(`${remote}/`)) this.modules.delete(id);
    this.forget(remote);
  }

  private start(remote: string, module: string, claimed: boolean): Loading {
    const id = `${remote}/${module}`;
    const { options, selection, prefetches } = this.parts;
    const loading = { retried: false, entry: selection.entryOf(remote) } as Loading;
    if (claimed) loading.claimedAt = this.now();
    const attempt = () =>
      loadWithRetries(
        (it) => options.runtime.loadRemote<unknown>(it),
        remote,
        module,
        this.parts.policy,
        (error) => {
          loading.retried = true;
          if (loading.claimedAt !== undefined) options.onLoadRetry?.(error);
        },
      );
    loading.promise = prefetches
      .inFlight(remote)
      .then(attempt)
      .catch(async (error: unknown) => {
        const fallback = await this.lastKnownGood.errorLoadRemote(remote, id, loading.entry, error);
        loading.entry = fallback.entry;
        loading.retried = false;
        return attempt();
      })
      .then((exports) => this.loadedFrom(remote, loading.entry, pageComponent(exports, id)));
    this.modules.set(id, loading);
    loading.promise.then(
      () => this.ended(remote, id, loading),
      (error: unknown) => this.ended(remote, id, loading, { error }),
    );
    return loading;
  }

  /** Tells of a remote's first load from the manifest it is loaded from now. */
  private loadedFrom(remote: string, entry: string, component: ComponentType): ComponentType {
    const { selection, options } = this.parts;
    if (entry === selection.entryOf(remote) && this.loaded.get(remote) !== entry) {
      this.loaded.set(remote, entry);
      options.onRemoteLoaded?.(remote, entry, selection.buildOf(remote));
    }
    return component;
  }

  private ended(remote: string, id: string, loading: Loading, failure?: { error: unknown }): void {
    if (!failure) loading.ok = true;
    else if (this.modules.get(id) === loading) this.modules.delete(id);
    if (loading.claimedAt !== undefined) this.report(remote, id, loading, failure);
    // A `warm` load's failure is nobody's yet: the route's load tries again.
    else if (failure)
      this.parts.policy.log(`Loading ${id} ahead of need failed; it will be loaded when needed.`, failure.error);
  }

  private report(remote: string, id: string, loading: Loading, failure?: { error: unknown }): void {
    const ms = this.now() - (loading.claimedAt ?? this.now());
    this.parts.options.onLoadEnd?.({ remote, id, ms, retried: loading.retried, ok: !failure, ...failure });
  }
}

export function createRemoteLoader(options: RemoteLoaderOptions): RemoteLoader {
  const { config, runtime } = options;
  const log = options.log ?? ((message, error) => console.warn(message, error));
  const selection = new RemoteSelection(config);
  runtime.registerRemotes(selection.registrations());
  const prefetches = new Prefetches((list) => runtime.preloadRemote(list), config.remoteTimeoutMs, log);
  const policy = { timeoutMs: config.remoteTimeoutMs, retryDelaysMs: options.retryDelaysMs ?? RETRY_DELAYS_MS, log };
  const loads = new PageLoads({ options, selection, prefetches, policy });
  return {
    load: (remote, module) => loads.load(remote, module),
    warm: (remote, module, when) => loads.warm(remote, module, when),
    prefetch(remote, module) {
      const key = module ? `${remote}/${module}` : remote;
      if (prefetches.has(key) || loads.has(key)) return;
      // A load of this remote already fetches (or fetched) its entry.
      if (!module && loads.hasAnyOf(remote)) return;
      prefetches.start(remote, module);
    },
    reset(remote) {
      loads.drop(remote);
      runtime.registerRemotes([{ name: remote, entry: selection.entryOf(remote) }], { force: true });
    },
    buildOf: (remote) => selection.buildOf(remote),
  };
}
