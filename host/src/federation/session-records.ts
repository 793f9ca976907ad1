/**
 * Writing what the tab remembers about remote builds (tab-memory.ts): loaded only with the
 * switch to a last known good build and the version check's comparison of builds, never with
 * the page's first scripts.
 */
import { BROKEN_BUILDS_KEY, BUILDS_TOLD_KEY, live, readKey, SESSION_BUILDS_MS, type Expiring } from './tab-memory';

function writeKey(storage: () => Storage | undefined, key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or disabled storage: nothing is remembered, as without it.
  }
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

/**
 * Whether a page should ask for a full load for `change`, which names the builds it runs and
 * those it was told to run (`gifts:c2>s1`): not when the page before it, in this tab, asked for
 * the same change (the full load gave the same builds again), unless the visitor brought this
 * document back from history (`restored`): no full load of ours produced it, and the one it asks
 * for is a normal navigation, which the guard holds again. Remembers the change when it says yes.
 */
export function shouldReloadFor(
  storage: () => Storage | undefined,
  change: string,
  now: number,
  restored: boolean,
): boolean {
  if (!restored && live<unknown>(readKey(storage, BUILDS_TOLD_KEY), now) === change) return false;
  writeKey(storage, BUILDS_TOLD_KEY, [change, now + SESSION_BUILDS_MS]);
  return true;
}
