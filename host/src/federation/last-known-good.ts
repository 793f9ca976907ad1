/** Switching a remote to its last known good build (docs/decisions/0051-remote-loading-plugins.md). */
import { chunkArrayName } from 'shared/remotes';
import type { RemoteSource } from './remote-selection';
import { sessionStore } from './tab-memory';
import { markBroken } from './session-records';

export interface FallbackEnd {
  remote: string;
  id: string;
  error: unknown;
  to: string | undefined;
}

export interface LastKnownGoodState {
  runtime: { registerRemotes(remotes: { name: string; entry: string }[], options: { force: boolean }): void };
  current: Map<string, RemoteSource>;
  forget(remote: string): void;
  log(message: string, error: unknown): void;
  onFallback?: (fallback: FallbackEnd) => void;
}

type ShareScopes = Record<string, Record<string, Record<string, Record<string, { from?: string; loaded?: boolean }>>>>;

interface FederationGlobal {
  __SHARE__?: ShareScopes;
  __INSTANCES__?: { name?: string }[];
}

const federationGlobal = () => (globalThis as { __FEDERATION__?: FederationGlobal }).__FEDERATION__;

/** The runtime misses it: a remote's instance has the host's id. */
function dropInstanceOf(remote: string): void {
  const instances = federationGlobal()?.__INSTANCES__ ?? [];
  for (let index = instances.length - 1; index >= 0; index -= 1) {
    if (instances[index]?.name === remote) instances.splice(index, 1);
  }
}

/** The next build's registration would keep the failed build's `get`. */
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
  // Before the fallback is read: telemetry still names the failed build.
  loader.onFallback?.({ remote, id, error, to });
  loader.forget(remote);
  if (failed?.build !== undefined) markBroken(sessionStore, remote, failed.build, Date.now());
  // One chunk array for every build of a remote: the next entry would take over these chunks.
  delete (globalThis as Record<string, unknown>)[chunkArrayName(remote)];
  loader.runtime.registerRemotes([{ name: remote, entry: fallback.entry }], { force: true });
  dropSharedOf(remote);
  dropInstanceOf(remote);
  loader.current.set(remote, fallback);
}
