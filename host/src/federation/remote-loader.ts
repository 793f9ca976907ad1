/**
 * Loads exposed pages from the remotes named in the runtime configuration, on demand. A remote
 * is fetched only when a route (or a prefetch) needs it; failures are not cached, so a retry
 * really tries again.
 *
 * Last known good: when a remote's build cannot be loaded after the retries (its files gone, a
 * file refused for its integrity, its server failing; not a timeout) and the configuration names
 * a fallback build for it (`remoteFallbacks`), the remote is switched to that build
 * (last-known-good.ts) and the load tried again from it, checked against the fallback manifest's
 * own integrity; the remote's later loads come from it too. The tab remembers the failed build
 * for a while (tab-memory.ts): a page that starts with it loads the fallback at once.
 */
import type { ComponentType } from 'react';
import type { RuntimeConfig } from 'shared/runtime-config';
import type { FallbackEnd, LastKnownGoodState } from './last-known-good';
import { isLoadFailure, RemoteTimeoutError } from './load-errors';
import { brokenBuild, buildOfManifestUrl, sessionStore } from './tab-memory';

/**
 * A failed download is tried again after these pauses before the caller (and so the reload
 * guard) sees the failure: a blip in the network should cost a moment, not a page reload.
 * A timeout is not retried; the visitor has already waited long enough.
 */
export const RETRY_DELAYS_MS = [250, 750] as const;

/** The part of the federation runtime this module uses; tests pass their own. */
export interface FederationRuntime {
  registerRemotes(remotes: { name: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
  preloadRemote(options: PreloadOptions[]): Promise<void>;
}

/** What `preloadRemote` is told for one remote (the runtime's `PreloadRemoteArgs`, in part). */
export interface PreloadOptions {
  nameOrAlias: string;
  exposes?: string[];
  resourceCategory?: 'all' | 'sync';
  share?: boolean;
  depsRemote?: boolean;
}

export interface RemoteLoader {
  load(remote: string, module: string): Promise<ComponentType>;
  /** Fetches a remote's entry (and, with a module, that module's files) ahead of need. */
  prefetch(remote: string, module?: string): void;
  /**
   * Runs a page's module ahead of need once the remote's prefetches are done (`when` may wait
   * longer, for an idle moment), so the route's `load` finds it ready and only renders. Silent:
   * until a `load` asks for it, it reports nothing, and a failure is forgotten (that `load`
   * tries again). Once per page per document; nothing for a page loaded or loading.
   */
  warm(remote: string, module: string, when?: (run: () => void) => void): void;
  /** Forgets a remote's entry and manifest, so the next load fetches them anew. */
  reset(remote: string): void;
  /** The build a remote is loaded from now (its configuration's, or its fallback's), when known. */
  buildOf(remote: string): string | undefined;
}

export type { FallbackEnd };

/**
 * How one `load()` ended (not a module already loaded or loading), for telemetry. A load that
 * finds an early one (`warm`) under way or done reports it, timed from its own call.
 */
export interface LoadEnd {
  remote: string;
  /** As the runtime names the load: `gifts/GamePage`. */
  id: string;
  /** From the call to its end, retries and the wait for a prefetch in flight included. */
  ms: number;
  /** It was tried again after a failed download. */
  retried: boolean;
  ok: boolean;
  /** What it failed with. */
  error?: unknown;
}

export interface RemoteLoaderOptions {
  config: RuntimeConfig;
  runtime: FederationRuntime;
  /** Pauses before retrying a failed download; tests pass shorter ones. */
  retryDelaysMs?: readonly number[];
  /**
   * Called once per remote after its first successful load, and again after its first load
   * from a fallback: its manifest and, when the configuration or the fallback's URL says, its build.
   */
  onRemoteLoaded?: (remote: string, entryUrl: string, build: string | undefined) => void;
  /** Told when a remote is switched to its fallback build, before the fallback is fetched. */
  onFallback?: (fallback: FallbackEnd) => void;
  log?: (message: string, error: unknown) => void;
  /** Told how each load ended. */
  onLoadEnd?: (end: LoadEnd) => void;
  /** Told of each failed attempt that is tried again, before the pause. */
  onLoadRetry?: (error: unknown) => void;
  /** The clock loads are timed with, in ms; `performance.now()` unless a test gives its own. */
  now?: () => number;
}

/** A page's load: `claimedAt` once a `load()` asked for it (an early one, `warm`, has none yet). */
interface Loading {
  promise: Promise<ComponentType>;
  /** The manifest the remote was registered with when the load started. */
  entry: string;
  claimedAt?: number;
  retried: boolean;
  /** It has ended with the page's component. */
  ok?: boolean;
}

const ENTRY_ONLY = '(entry only)';

/**
 * A prefetch asks for what the runtime's own `loadRemote` preloads (its snapshot plugin): the
 * manifest, the entry and, with a module, that module's own chunks (`sync` in the remote's
 * `mf-manifest.json`). A module's `async` chunks include the remote's fallback copies of shared
 * libraries (its own react-router, ~61 KB), which the page never loads while the host provides
 * them: `resourceCategory: 'all'` would download them for nothing.
 */
function preloadOptions(remote: string, module: string | undefined): PreloadOptions {
  // Without a module, name no real expose so that only the manifest and entry are fetched.
  const exposes = module ? [module] : [ENTRY_ONLY];
  return { nameOrAlias: remote, exposes, resourceCategory: 'sync', share: false, depsRemote: false };
}

/** Our own timeout, or the runtime's script timeout for the remote entry. */
function isTimeout(error: unknown): boolean {
  return error instanceof RemoteTimeoutError || (error instanceof Error && /\btimed out\b/.test(error.message));
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function pageComponent(module: unknown, id: string): ComponentType {
  const component = (module as { default?: unknown } | null)?.default;
  if (typeof component === 'function' || (typeof component === 'object' && component !== null)) {
    return component as ComponentType;
  }
  throw new Error(`${id} has no default export to render`);
}

export function createRemoteLoader(options: RemoteLoaderOptions): RemoteLoader {
  const { config, runtime } = options;
  const log = options.log ?? ((message, error) => console.warn(message, error));
  const fallbacks = config.remoteFallbacks ?? {};
  /** The manifest each remote is loaded from now, and the build it names (when known). */
  const current: LastKnownGoodState['current'] = new Map();
  for (const [name, entry] of Object.entries(config.remotes) as [string, string][]) {
    const assigned = config.remoteBuilds?.[name];
    const fallback = fallbacks[name];
    // A build this tab found broken lately: straight to its fallback.
    const broken = fallback && assigned !== undefined && brokenBuild(sessionStore, name, Date.now()) === assigned;
    current.set(name, broken ? { entry: fallback, build: buildOfManifestUrl(fallback) } : { entry, build: assigned });
  }
  const entryOf = (remote: string): string => {
    const entry = current.get(remote)?.entry ?? config.remotes[remote];
    if (entry === undefined) throw new Error(`No remote named ${remote} is configured`);
    return entry;
  };
  runtime.registerRemotes([...current].map(([name, { entry }]) => ({ name, entry })));

  const retryDelays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const now = options.now ?? (() => performance.now());
  /** Pages' loads by id (`gifts/GamePage`); a failed one is forgotten. */
  const modules = new Map<string, Loading>();
  /** Early loads started (by id) or waiting to (`<id> now`, `<id> later`): each at most once. */
  const warming = new Set<string>();

  async function loadWithRetries(
    remote: string,
    module: string,
    id: string,
    onRetry: (error: unknown) => void,
  ): Promise<unknown> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await withTimeout(
          runtime.loadRemote<unknown>(id),
          config.remoteTimeoutMs,
          () => new RemoteTimeoutError(remote, module, config.remoteTimeoutMs),
        );
      } catch (error) {
        const delay = retryDelays[attempt];
        if (delay === undefined || isTimeout(error) || !isLoadFailure(error)) throw error;
        log(`Loading ${id} failed; trying again in ${delay} ms.`, error);
        onRetry(error);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
  /** Prefetches by key (`remote` or `remote/module`); they never reject. */
  const prefetched = new Map<string, Promise<void>>();

  /** A load waits for the remote's prefetches in flight, so the entry is fetched only once. */
  function prefetchesOf(remote: string): Promise<unknown> {
    const pending = [...prefetched]
      .filter(([key]) => key === remote || key.startsWith(`${remote}/`))
      .map(([, done]) => done);
    if (pending.length === 0) return Promise.resolve();
    // Never wait on a prefetch longer than a load itself may take.
    return withTimeout(Promise.all(pending), config.remoteTimeoutMs, () => new Error('prefetch still running')).catch(
      () => undefined,
    );
  }
  /** The manifest each remote was last loaded from. */
  const loaded = new Map<string, string>();

  /** Forgets what the page fetched or loaded of a remote (not the loads under way), so its next load starts anew. */
  function forget(remote: string): void {
    for (const [id, loading] of modules) if (id.startsWith(`${remote}/`) && loading.ok) modules.delete(id);
    for (const key of [...warming]) if (key.startsWith(`${remote}/`)) warming.delete(key);
    for (const key of [...prefetched.keys()])
      if (key === remote || key.startsWith(`${remote}/`)) prefetched.delete(key);
  }

  /** What the switch to a last known good build (its own chunk) reads and changes of the loader. */
  const lastKnownGood: LastKnownGoodState = { runtime, current, forget, log, onFallback: options.onFallback };

  function report(remote: string, id: string, loading: Loading, failure?: { error: unknown }): void {
    const ms = now() - (loading.claimedAt ?? now());
    options.onLoadEnd?.({ remote, id, ms, retried: loading.retried, ok: !failure, ...failure });
  }

  /** Starts a page's load; `claimed` unless it is an early one (`warm`). */
  function start(remote: string, module: string, id: string, claimed: boolean): Loading {
    const state: Omit<Loading, 'promise'> = { retried: false, entry: entryOf(remote) };
    if (claimed) state.claimedAt = now();
    const attempt = () =>
      loadWithRetries(remote, module, id, (error) => {
        state.retried = true;
        if (state.claimedAt !== undefined) options.onLoadRetry?.(error);
      });
    const promise = prefetchesOf(remote)
      .then(attempt)
      .catch(async (error: unknown) => {
        // Only after a failure to download (not a timeout: the visitor has waited enough), and
        // not for a load of the fallback already.
        const fallback = fallbacks[remote];
        if (!fallback || state.entry === fallback || isTimeout(error) || !isLoadFailure(error)) throw error;
        // Unless its code cannot be fetched: then the load fails as it would have.
        await import(/* webpackChunkName: "last-known-good" */ './last-known-good')
          .then(({ switchTo }) => switchTo(lastKnownGood, remote, fallback, id, error))
          .catch(() => Promise.reject(error));
        // A load of the fallback build, with retries of its own.
        state.entry = fallback;
        state.retried = false;
        return attempt();
      })
      .then((exports) => {
        const component = pageComponent(exports, id);
        // The remote's first load from the manifest it is loaded from now.
        if (state.entry === entryOf(remote) && loaded.get(remote) !== state.entry) {
          loaded.set(remote, state.entry);
          options.onRemoteLoaded?.(remote, state.entry, current.get(remote)?.build);
        }
        return component;
      });
    const loading: Loading = Object.assign(state, { promise });
    modules.set(id, loading);
    loading.promise.then(
      () => {
        loading.ok = true;
        if (loading.claimedAt !== undefined) report(remote, id, loading);
      },
      (error: unknown) => {
        if (modules.get(id) === loading) modules.delete(id);
        // An early load's failure is nobody's yet: forgotten, so the route's load tries again.
        if (loading.claimedAt !== undefined) report(remote, id, loading, { error });
        else log(`Loading ${id} ahead of need failed; it will be loaded when needed.`, error);
      },
    );
    return loading;
  }

  return {
    load(remote, module) {
      const id = `${remote}/${module}`;
      const cached = modules.get(id);
      if (!cached) return start(remote, module, id, true).promise;
      if (cached.claimedAt === undefined) {
        // An early load, under way or done: this is the page's real load, reported as one.
        cached.claimedAt = now();
        if (cached.ok) report(remote, id, cached);
      }
      return cached.promise;
    },

    warm(remote, module, when) {
      const id = `${remote}/${module}`;
      const how = `${id} ${when ? 'later' : 'now'}`;
      if (modules.has(id) || warming.has(how)) return;
      warming.add(how);
      const schedule = when ?? ((run: () => void) => run());
      void prefetchesOf(remote).then(() =>
        schedule(() => {
          if (modules.has(id) || warming.has(id)) return;
          warming.add(id);
          start(remote, module, id, false);
        }),
      );
    },

    prefetch(remote, module) {
      const key = module ? `${remote}/${module}` : remote;
      if (prefetched.has(key) || modules.has(key)) return;
      // A load of this remote already fetches (or fetched) its entry.
      if (!module && [...modules.keys()].some((id) => id.startsWith(`${remote}/`))) return;
      // Best effort: a failed prefetch is not repeated; the route's own load still tries.
      const done = runtime
        .preloadRemote([preloadOptions(remote, module)])
        .catch((error: unknown) =>
          log(`Prefetching the ${remote} remote failed; it will be loaded when needed.`, error),
        );
      prefetched.set(key, done);
    },

    reset(remote) {
      for (const id of [...modules.keys()]) if (id.startsWith(`${remote}/`)) modules.delete(id);
      forget(remote);
      runtime.registerRemotes([{ name: remote, entry: entryOf(remote) }], { force: true });
    },

    buildOf: (remote) => current.get(remote)?.build,
  };
}
