/** The writes of what the tab remembers (tab-memory.ts), apart from the first scripts. */
import { BROKEN_BUILDS_KEY, BUILDS_TOLD_KEY, live, readKey, SESSION_BUILDS_MS, type Expiring } from './tab-memory';

function writeKey(storage: () => Storage | undefined, key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or disabled storage: as without it.
  }
}

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

/** Not twice for one `change`, unless history brought this document. */
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
