/**
 * The version check's comparison of the builds a page runs with those the host's server gives
 * this visitor now (`/remote-builds.json`, version-check.ts): loaded at the first poll, apart from
 * the page's first scripts. The page's builds are its configuration's (`remoteBuilds`), never
 * read at load, so nothing is missed before it loads.
 */
import type { RemoteBuildsAnswer } from 'shared/deployment';
import { brokenBuild } from '../federation/session-builds';
import { markBroken, shouldReloadFor } from '../federation/session-records';

/**
 * Whether the page should be loaded anew for `answer`: a loaded remote's build in it differs
 * from the one the page runs (`running`), and is not one this tab found broken (the host's server
 * may still name a canary it has not read the abort of: no bounce back); and the page before
 * this one was not loaded anew for the same change (no loop, session-records.ts).
 */
export function reloadFor(
  answer: unknown,
  running: ReadonlyMap<string, string>,
  storage: () => Storage | undefined,
  now: number,
  log: (message: string) => void,
): boolean {
  const builds = (answer as Partial<RemoteBuildsAnswer> | null)?.builds;
  const changes = [...running]
    .filter(([name, runs]) => {
      const told = builds?.[name];
      return typeof told === 'string' && told !== runs && brokenBuild(storage, name, now) !== told;
    })
    .map(([name, runs]) => `${name}:${runs}>${builds?.[name]}`);
  if (changes.length === 0) return false;
  if (shouldReloadFor(storage, changes.join(' '), now)) return true;
  log(`A full load already gave this page the same builds (${changes.join(' ')}); not asking again`);
  return false;
}

/**
 * After `remote`'s page threw while rendering on build `runs`: whether to leave it for the build
 * `answer` gives the visitor now (reloadFor's rules). If so, `runs` is marked broken for the tab:
 * its next pages load their fallback rather than it, and no answer sends the visitor back to it.
 */
export function leaveThrowingBuild(
  answer: unknown,
  remote: string,
  runs: string,
  storage: () => Storage | undefined,
  now: number,
  log: (message: string) => void,
): boolean {
  if (!reloadFor(answer, new Map([[remote, runs]]), storage, now, log)) return false;
  markBroken(storage, remote, runs, now);
  return true;
}
