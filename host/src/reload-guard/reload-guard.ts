/** One reload per path within a window after a failed load, so a permanent failure cannot loop. */
export const RELOAD_GUARD_KEY = 'p-reload-guard';
export const RELOAD_GUARD_WINDOW_MS = 10_000;

interface GuardEntry {
  path: string;
  expires: number;
}

export interface ReloadGuardDeps {
  storage: () => Storage;
  now: () => number;
  currentPath: () => string;
  reload: () => void;
  assign: (path: string) => void;
  onReload?: (path: string) => void;
}

function readEntry(storage: Storage): GuardEntry | undefined {
  const raw = storage.getItem(RELOAD_GUARD_KEY);
  if (!raw) return undefined;
  const parsed = JSON.parse(raw) as Partial<GuardEntry>;
  return typeof parsed.path === 'string' && typeof parsed.expires === 'number'
    ? { path: parsed.path, expires: parsed.expires }
    : undefined;
}

/**
 * The window counts from when the failed load *started*: a timeout as long as the window would
 * otherwise fail just after it, every time. Without storage, no reload: nothing could stop a loop.
 */
export function reloadOnce(path: string, deps: ReloadGuardDeps, loadStartedAt?: number): boolean {
  const now = deps.now();
  const startedAt = Math.min(loadStartedAt ?? now, now);
  try {
    const storage = deps.storage();
    let previous: GuardEntry | undefined;
    try {
      previous = readEntry(storage);
    } catch {
      previous = undefined; // an unreadable entry is as good as none
    }
    if (previous && previous.path === path && previous.expires > startedAt) return false;
    const entry: GuardEntry = { path, expires: now + RELOAD_GUARD_WINDOW_MS };
    storage.setItem(RELOAD_GUARD_KEY, JSON.stringify(entry));
  } catch {
    return false;
  }
  deps.onReload?.(path);
  if (path === deps.currentPath()) deps.reload();
  else deps.assign(path);
  return true;
}

export const browserReloadDeps: ReloadGuardDeps = {
  storage: () => window.sessionStorage,
  now: () => Date.now(),
  currentPath: () => `${window.location.pathname}${window.location.search}`,
  reload: () => window.location.reload(),
  assign: (path) => window.location.assign(path),
};
