/**
 * The version check as the page's first script holds it: a stand-in whose code (version-check.ts)
 * is fetched when it starts, after the first page (bootstrap.tsx). Nothing is stale before its
 * first poll, which comes an interval after it starts, so until then the stand-in answers "not
 * stale" as the check itself would; the remotes loaded meanwhile are tracked once it has arrived.
 * If its code cannot be fetched (the network is gone), the page goes on without a version check:
 * every navigation stays in the app, as when a poll fails.
 */
import type { VersionCheck } from './version-check';

/** Makes the real check, from its module fetched on demand. */
export type LoadVersionCheck = () => Promise<VersionCheck>;

export interface DeferredVersionCheckDeps {
  log: (message: string, error?: unknown) => void;
}

export function deferredVersionCheck(
  load: LoadVersionCheck,
  deps: DeferredVersionCheckDeps = { log: (message, error) => console.warn(message, error) },
): VersionCheck {
  /** Remotes loaded before the check arrived: name → entry URL, in load order. */
  const pending = new Map<string, string>();
  let check: VersionCheck | undefined;
  let loading: Promise<void> | undefined;
  let running = false;

  async function arrive(): Promise<void> {
    try {
      check = await load();
    } catch (error) {
      deps.log('The version check could not be loaded', error);
      return;
    }
    for (const [name, entryUrl] of pending) void check.trackRemote(name, entryUrl);
    pending.clear();
    if (running) check.start();
  }

  return {
    start() {
      running = true;
      if (check) check.start();
      else loading ??= arrive();
    },
    stop() {
      running = false;
      check?.stop();
    },
    async poll() {
      await loading;
      await check?.poll();
    },
    async trackRemote(name, entryUrl) {
      if (check) return check.trackRemote(name, entryUrl);
      if (!pending.has(name)) pending.set(name, entryUrl);
    },
    isStale: () => check?.isStale() ?? false,
  };
}
