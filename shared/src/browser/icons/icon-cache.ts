/**
 * The browser's LRU cache of service icons in one localStorage key: storage that is missing, full
 * or corrupt only makes every lookup a miss.
 */
import type { IconifyIcon } from '@iconify/react/offline';

export const ICON_CACHE_MAX_ENTRIES = 50;
export const ICON_CACHE_TTL_HOURS = 168;
export const ICON_CACHE_KEY = 'p-icons';

const TTL_MS = ICON_CACHE_TTL_HOURS * 60 * 60 * 1000;
// 3: entries are sanitised drawings; older ones are dropped.
const VERSION = 3;

interface Entry {
  data: IconifyIcon;
  storedAt: number;
  usedAt: number;
}

type Entries = Record<string, Entry>;

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    // Access itself throws where storage is blocked.
    return undefined;
  }
}

function isIconData(value: unknown): value is IconifyIcon {
  return typeof value === 'object' && value !== null && typeof (value as IconifyIcon).body === 'string';
}

function isEntry(value: unknown): value is Entry {
  const entry = value as Entry;
  return (
    typeof value === 'object' &&
    value !== null &&
    isIconData(entry.data) &&
    Number.isFinite(entry.storedAt) &&
    Number.isFinite(entry.usedAt)
  );
}

function readEntries(now: number): Entries {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage()?.getItem(ICON_CACHE_KEY) ?? 'null');
  } catch {
    return {};
  }
  const { version, entries } = (parsed ?? {}) as { version?: unknown; entries?: unknown };
  if (version !== VERSION || typeof entries !== 'object' || entries === null) return {};
  const live: Entries = {};
  for (const [name, entry] of Object.entries(entries)) {
    if (isEntry(entry) && now - entry.storedAt < TTL_MS && entry.storedAt <= now) live[name] = entry;
  }
  return live;
}

function writeEntries(entries: Entries): void {
  try {
    storage()?.setItem(ICON_CACHE_KEY, JSON.stringify({ version: VERSION, entries }));
  } catch {
    // Full or blocked: the icon is only fetched again next time.
  }
}

export function readCachedIcon(name: string, now = Date.now()): IconifyIcon | undefined {
  const entries = readEntries(now);
  const entry = entries[name];
  if (!entry) return undefined;
  entry.usedAt = now;
  writeEntries(entries);
  // Storage is writable by any script on the origin: the caller sanitises it again.
  return entry.data;
}

export function writeCachedIcon(name: string, data: IconifyIcon, now = Date.now()): void {
  const entries = readEntries(now);
  entries[name] = { data, storedAt: now, usedAt: now };
  const byLastUse = Object.keys(entries).sort((a, b) => (entries[a]?.usedAt ?? 0) - (entries[b]?.usedAt ?? 0));
  for (const stale of byLastUse.slice(0, Math.max(0, byLastUse.length - ICON_CACHE_MAX_ENTRIES))) {
    delete entries[stale];
  }
  writeEntries(entries);
}
