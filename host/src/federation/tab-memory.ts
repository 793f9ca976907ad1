/** The reads of what this tab remembers of remote builds (docs/decisions/0030, 0036). */

/** Outlives a canary's abort; lets a fixed build back. */
export const SESSION_BUILDS_MS = 10 * 60_000;
export const BROKEN_BUILDS_KEY = 'p-broken-builds';
export const BUILDS_TOLD_KEY = 'p-builds-told';

export type Expiring<T> = [value: T, expires: number];

export function readKey(storage: () => Storage | undefined, key: string): unknown {
  try {
    return JSON.parse(storage()?.getItem(key) ?? 'null') as unknown;
  } catch {
    return null;
  }
}

export function live<T>(record: unknown, now: number): T | undefined {
  const [value, expires] = Array.isArray(record) ? (record as Expiring<T>) : [];
  return typeof expires === 'number' && expires > now ? value : undefined;
}

export function brokenBuild(storage: () => Storage | undefined, remote: string, now: number): string | undefined {
  const marks = readKey(storage, BROKEN_BUILDS_KEY) as Record<string, unknown> | null;
  const id = live<unknown>(marks?.[remote], now);
  return typeof id === 'string' ? id : undefined;
}

export function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}
