/**
 * What this browser tab remembers about remote builds, in sessionStorage, each record for a
 * while only (a few small keys, never growing):
 *
 * - the builds it found broken (`p-broken-builds`: remote -> `[build, expires]`): a page that
 *   starts with a remote whose build is marked broken loads its fallback at once, and the version
 *   check does not send the visitor back to it;
 * - the last time the version check asked for a full load because the host's server named other
 *   builds (`p-builds-told`: `[what the page ran -> what it was told, expires]`): a page that
 *   still runs the same builds after that full load, and is told the same, does not ask again
 *   (a document the visitor brought back from history does, once: session-records.ts).
 *
 * Storage that cannot be read or written holds nothing: the page then behaves as without it.
 * Only what a page reads as it starts is here; what writes the records (session-records.ts) loads
 * with the code that needs it, after a failure or at a poll, apart from the page's first scripts.
 */

/** How long a record lasts: long enough to outlive a canary's abort, short enough to let a fixed build back. */
export const SESSION_BUILDS_MS = 10 * 60_000;
export const BROKEN_BUILDS_KEY = 'p-broken-builds';
export const BUILDS_TOLD_KEY = 'p-builds-told';

export type Expiring<T> = [value: T, expires: number];

export function readKey(storage: () => Storage | undefined, key: string): unknown {
  try {
    return JSON.parse(storage()?.getItem(key) ?? 'null') as unknown;
  } catch {
    return null; // unreadable storage or a malformed record: none
  }
}

export function live<T>(record: unknown, now: number): T | undefined {
  const [value, expires] = Array.isArray(record) ? (record as Expiring<T>) : [];
  return typeof expires === 'number' && expires > now ? value : undefined;
}

/** The build of `remote` this tab found broken lately, if any. */
export function brokenBuild(storage: () => Storage | undefined, remote: string, now: number): string | undefined {
  const marks = readKey(storage, BROKEN_BUILDS_KEY) as Record<string, unknown> | null;
  const id = live<unknown>(marks?.[remote], now);
  return typeof id === 'string' ? id : undefined;
}

/** sessionStorage, or none where the page may not use it. */
export function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}
