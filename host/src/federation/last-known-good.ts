/**
 * Switching a remote to its last known good build, once its own build could not be loaded after
 * the retries (remote-loader.ts). Its own chunk: it runs only after such a failure, so the page's
 * first scripts do not carry it.
 *
 * The federation runtime's forced re-registration (`registerRemotes(…, { force: true })`, its
 * `removeRemote`) forgets what it keeps of the remote: the module cache entry and with it the
 * container, the entry's global (`var gifts`, set to undefined as a `var` cannot be deleted), the
 * entry's loading promise, the manifest's snapshot and cache entry. It would forget the remote's
 * runtime instance and the shared modules it offered too, but finds the instance under another
 * id than the one our remotes' instances have: both are dropped here. What it does not know of is webpack's
 * own: the array the remote's chunks push themselves onto (`self.webpackChunk<name>`, one name for
 * every build of a remote: output.uniqueName). The next build's entry would take over the chunks
 * the broken build pushed there, with their module factories, and never fetch its own copies of
 * those chunks: the array is emptied first. A chunk of the broken build still in flight could land
 * in the new array; the loads it belongs to have failed already.
 */
import { BROKEN_BUILDS_KEY, live, readKey, SESSION_BUILDS_MS, writeKey, type Expiring } from './session-builds';

export interface FallbackSwitch {
  /** The federation runtime's part that registers remotes (remote-loader.ts's FederationRuntime). */
  runtime: { registerRemotes(remotes: { name: string; entry: string }[], options: { force: boolean }): void };
  remote: string;
  /** The fallback's manifest. */
  manifestUrl: string;
  /** The build that failed, when the page knows it: marked broken for this tab. */
  broken: string | undefined;
  storage: () => Storage | undefined;
  now: number;
}

/** Marks `build` of `remote` broken for SESSION_BUILDS_MS, dropping the marks that expired. */
export function markBroken(storage: () => Storage | undefined, remote: string, build: string, now: number): void {
  const marks = readKey(storage, BROKEN_BUILDS_KEY);
  const kept: Record<string, Expiring<string>> = {};
  if (typeof marks === 'object' && marks !== null) {
    for (const [name, record] of Object.entries(marks)) {
      if (typeof live<unknown>(record, now) === 'string') kept[name] = record as Expiring<string>;
    }
  }
  kept[remote] = [build, now + SESSION_BUILDS_MS];
  writeKey(storage, BROKEN_BUILDS_KEY, kept);
}

/** webpack's name for the array a remote's chunks push themselves onto (its Template.toIdentifier of uniqueName). */
export function chunkArrayName(remote: string): string {
  return `webpackChunk${remote.replace(/^([^a-z$_])/i, '_$1').replace(/[^a-z0-9$]+/gi, '_')}`;
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

/** Points the runtime at the fallback's manifest, so the remote's next load comes from that build. */
export function switchToFallback({ runtime, remote, manifestUrl, broken, storage, now }: FallbackSwitch): void {
  if (broken !== undefined) markBroken(storage, remote, broken, now);
  delete (globalThis as Record<string, unknown>)[chunkArrayName(remote)];
  runtime.registerRemotes([{ name: remote, entry: manifestUrl }], { force: true });
  dropSharedOf(remote);
  dropInstanceOf(remote);
}
