/**
 * Switching a remote to its last known good build, once its own build could not be loaded after
 * the retries (remote-loader.ts). In a chunk of its own (with the version check's comparison of
 * builds, build-comparison.ts): it runs only after such a failure, so the page's first scripts do
 * not carry it.
 *
 * The federation runtime's forced re-registration (`registerRemotes(…, { force: true })`, its
 * `removeRemote`) forgets what it keeps of the remote: the module cache entry and with it the
 * container, the entry's global (`var gifts`, set to undefined as a `var` cannot be deleted), the
 * entry's loading promise, the manifest's snapshot and cache entry. It would forget the remote's
 * runtime instance and the shared modules it offered too, but looks for the instance under an id
 * our remotes' instances do not have: both are dropped here. What it does not know of is
 * webpack's own: the array the remote's chunks push themselves onto (`self.webpackChunk<name>`,
 * one name for every build of a remote: output.uniqueName). The next build's entry would take
 * over the chunks the broken build pushed there, with their module factories, and never fetch its
 * own copies of those chunks: the array is emptied first. A chunk of the broken build still in
 * flight could land in the new array; the loads it belongs to have failed already.
 */
import { chunkArrayName } from 'shared/remotes';
import type { RemoteSource } from './remote-selection';
import { sessionStore } from './tab-memory';
import { markBroken } from './session-records';

/** A remote switched to its fallback build after its own failed (`remoteFallbacks`). */
export interface FallbackEnd {
  remote: string;
  /** The load whose failure made the switch, as the runtime names it: `gifts/GamePage`. */
  id: string;
  /** Why the remote's build could not be loaded. */
  error: unknown;
  /** The build switched to, as its manifest URL names it (`builds/{id}/`); undefined when it names none. */
  to: string | undefined;
}

/** What the switch reads and changes of a remote loader (remote-loader.ts). */
export interface LastKnownGoodState {
  /** The federation runtime's part that registers remotes (remote-loader.ts's FederationRuntime). */
  runtime: { registerRemotes(remotes: { name: string; entry: string }[], options: { force: boolean }): void };
  current: Map<string, RemoteSource>;
  /** Forgets what the loader fetched or loaded of a remote, so its next load starts anew. */
  forget(remote: string): void;
  log(message: string, error: unknown): void;
  onFallback?: (fallback: FallbackEnd) => void;
}

/** The share scopes of every federation instance on the page, as the runtime keeps them (`__FEDERATION__.__SHARE__`). */
type ShareScopes = Record<string, Record<string, Record<string, Record<string, { from?: string; loaded?: boolean }>>>>;

interface FederationGlobal {
  __SHARE__?: ShareScopes;
  __INSTANCES__?: { name?: string }[];
}

const federationGlobal = () => (globalThis as { __FEDERATION__?: FederationGlobal }).__FEDERATION__;

/**
 * Forgets the remote's runtime instance. The runtime looks for it by `<name>:<version>`, but a
 * remote's instance takes the host's id (`host:0.1.0`), so the runtime finds none and keeps it;
 * the next build's entry, which looks for one by name, would take it over with the failed
 * build's registrations.
 */
function dropInstanceOf(remote: string): void {
  const instances = federationGlobal()?.__INSTANCES__ ?? [];
  for (let index = instances.length - 1; index >= 0; index -= 1) {
    if (instances[index]?.name === remote) instances.splice(index, 1);
  }
}

/**
 * Drops the shared modules `remote` offered that no part holds loaded: their `get` is the failed
 * build's (the next build's registration would keep it: the runtime adds only what an entry
 * lacks), and one whose load failed keeps its rejected promise, which every later load would
 * meet. The runtime drops them with the remote's instance, which it does not find (above). A
 * copy loaded already works wherever it is used, and stays.
 */
function dropSharedOf(remote: string): void {
  const scopes = federationGlobal()?.__SHARE__ ?? {};
  for (const instance of Object.values(scopes)) {
    for (const scope of Object.values(instance ?? {})) {
      for (const versions of Object.values(scope ?? {})) {
        for (const [version, shared] of Object.entries(versions ?? {})) {
          if (shared?.from === remote && shared.loaded !== true) delete versions[version];
        }
      }
    }
  }
}

/**
 * Switches `remote` to its fallback's manifest (once, whichever of its failed loads asks first),
 * so its next load comes from that build: tells the loader's telemetry, forgets what the loader
 * held of the failed build, marks it broken for this tab and clears what the runtime keeps of it.
 */
export function switchTo(
  loader: LastKnownGoodState,
  remote: string,
  fallback: RemoteSource,
  id: string,
  error: unknown,
): void {
  const failed = loader.current.get(remote);
  if (failed?.entry === fallback.entry) return;
  const to = fallback.build;
  loader.log(`The ${remote} remote's build could not be loaded; loading its last known good build.`, error);
  // Told before the fallback's manifest is read: the telemetry still knows the failed build as the remote's.
  loader.onFallback?.({ remote, id, error, to });
  loader.forget(remote);
  if (failed?.build !== undefined) markBroken(sessionStore, remote, failed.build, Date.now());
  delete (globalThis as Record<string, unknown>)[chunkArrayName(remote)];
  loader.runtime.registerRemotes([{ name: remote, entry: fallback.entry }], { force: true });
  dropSharedOf(remote);
  dropInstanceOf(remote);
  loader.current.set(remote, fallback);
}
