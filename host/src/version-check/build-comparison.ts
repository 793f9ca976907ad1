/** The builds a page runs against those the host's server gives the visitor now; loaded at the first question. */
import type { RemoteBuildsAnswer } from 'shared/deployment';
import { brokenBuild } from '../federation/tab-memory';
import { markBroken, shouldReloadFor } from '../federation/session-records';

export interface PageState {
  storage: () => Storage | undefined;
  now: number;
  log: (message: string) => void;
  restored: boolean;
}

/**
 * The change `answer` names for `remote`, which runs `runs` (`gifts:c2>s1`): another build, and
 * not one this tab found broken (the host's server may still name a canary it has not read the
 * abort of: no bounce back).
 */
function changeOf(answer: unknown, remote: string, runs: string, page: PageState): string | undefined {
  const told = (answer as Partial<RemoteBuildsAnswer> | null)?.builds?.[remote];
  if (typeof told !== 'string' || told === runs || brokenBuild(page.storage, remote, page.now) === told)
    return undefined;
  return `${remote}:${runs}>${told}`;
}

/**
 * Whether the page should be loaded anew for `answer`: a loaded remote's build in it differs
 * from the one the page runs (`running`) by changeOf's rules; and the page before this one was
 * not loaded anew for the same change (no loop, session-records.ts), unless the visitor brought
 * this document back from history.
 */
export function reloadFor(answer: unknown, running: ReadonlyMap<string, string>, page: PageState): boolean {
  const changes = [...running].flatMap(([name, runs]) => changeOf(answer, name, runs, page) ?? []);
  if (changes.length === 0) return false;
  const change = changes.join(' ');
  if (shouldReloadFor(page.storage, change, page.now, page.restored)) return true;
  page.log(`A full load already gave this page the same builds (${change}); not asking again`);
  return false;
}

/**
 * After `remote`'s code threw on build `runs`: whether to leave it for the build `answer` gives
 * the visitor now. If so, `runs` is marked broken for the tab: its next pages load their fallback
 * rather than it (remote-loader.ts), and no answer sends the visitor back to it. No other change
 * the tab was told of holds the page there (a document restored by history runs the build a
 * later page left without marking it). A build marked broken already, which a page runs only
 * without a fallback, is not left twice: a full load gave it again (a host's server that had not
 * read the change yet), unless the visitor brought this document back from history.
 */
export function leaveThrowingBuild(answer: unknown, remote: string, runs: string, page: PageState): boolean {
  const change = changeOf(answer, remote, runs, page);
  if (change === undefined) return false;
  if (!page.restored && brokenBuild(page.storage, remote, page.now) === runs) {
    page.log(`A full load already gave this page the build it left (${change}); not asking again`);
    return false;
  }
  markBroken(page.storage, remote, runs, page.now);
  return true;
}
