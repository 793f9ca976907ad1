/**
 * Notices new deployments. Shortly after start it fetches this build's meta file (warming the
 * cache; a failure is only logged), then polls the host's `latest.json` and that of every remote
 * it has loaded. Once any of them names another build, the next navigation is a full page load.
 *
 * A page the host's server told which build of each remote it runs (`remoteBuilds`) follows the
 * visitor's own builds instead of the remotes' `latest.json`: each poll asks the host's server
 * once (`buildsUrl`) which builds this visitor gets now, and the page is stale when a loaded
 * remote's differs from the one it runs (its own, or its fallback's once it fell back). Not for
 * a build this tab found broken (the server may still name it: no bounce back), and not twice for
 * the same change: a full load that gave the page the same builds as before, told the same again,
 * asks for no other (tab-memory.ts), though a document the visitor brought back from history
 * (Back, Forward) does, once (restored-by-history.ts). The comparison (build-comparison.ts) loads
 * at the first poll, in the chunk of the switch to a last known good build: the builds a page
 * runs come from its configuration, not from a read at load, so nothing is missed before it
 * arrives.
 *
 * While the host's server says a remote's deployment is unsettled (a canary running, a change in
 * the last minutes: `checkBuildsOnNavigation`, and each answer's `checkOnNavigation` after it),
 * the page asks on each navigation too, so an abort, a promotion or a rollback reaches it on its
 * next navigation whatever the poll's interval. And a remote's page that threw while rendering
 * asks whether the visitor is given another build of it now: a build the deployment no longer
 * serves them is left for the one it does (a full load), not shown as an error page.
 */
import type { BuildInfo } from 'shared/build-info';
import { DEPLOYMENT_FILE, DEPLOYMENT_FILE_NAME, HOST_BUILDS_DIR, META_DIR_NAME } from 'shared/deployment';
import { DEFAULT_REMOTE_TIMEOUT_MS } from 'shared/runtime-config';
import { sessionStore } from '../federation/tab-memory';
import { watchHistoryRestores } from './restored-by-history';
import type * as VisitorBuildsModule from './build-comparison';

/** The comparison's chunk, loaded at the first question (a type only here: its code stays out of the first script). */
type VisitorBuilds = typeof VisitorBuildsModule;

export const META_PREFETCH_DELAY_MS = 1000;
/**
 * How long a question about the visitor's builds asked at a link's intent serves the navigation
 * that follows (its click): the host's servers read a deployment every few seconds
 * (REMOTE_REFRESH_MS, 5 s by default), so an answer this recent is as fresh as any. It serves one
 * navigation; the next asks anew.
 */
export const NAVIGATION_ANSWER_REUSE_MS = 5000;
/** Pointing at one link after another asks at most once in this long. */
export const INTENT_QUESTION_GAP_MS = 1000;
export const HOST_BUILDS_PATH = `/${HOST_BUILDS_DIR}`;

export interface ConnectionInfo {
  effectiveType?: string;
  saveData?: boolean;
}

export interface VersionCheckDeps {
  fetch: typeof fetch;
  now: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  connection: () => ConnectionInfo | undefined;
  log: (message: string, error?: unknown) => void;
  /** Whether the visitor brought this document back from history (restored-by-history.ts). */
  restoredByHistory: () => boolean;
}

export interface VersionCheck {
  start(): void;
  stop(): void;
  /** Checks now; resolves when every check has answered or failed. */
  poll(): Promise<void>;
  /**
   * Starts watching a remote's builds once it has been loaded: with `build` (the one the page
   * runs) and a `buildsUrl`, by asking the host's server; else by its `latest.json`.
   */
  trackRemote(name: string, entryUrl: string, build?: string): Promise<void>;
  /** True once a newer build of the host or of a loaded remote is known. */
  isStale(): boolean;
  /**
   * On a navigation: whether the page should be loaded anew (isStale), once the host's server has
   * answered which builds the visitor gets now when it asked for that on navigations; an answer
   * later than `timeoutMs` counts as none. Not at the router's first load, the document's own:
   * its builds are the ones the host's server has just given.
   */
  checkNavigation(): Promise<boolean>;
  /**
   * A visitor is about to follow a link (link-intent.tsx): asks now what `checkNavigation` will ask,
   * so the click finds the answer there rather than waiting a round trip for it.
   */
  prepareNavigation(): void;
  /** Whether the page follows its remotes' builds through the host's server (`buildsUrl`). */
  followsBuilds(): boolean;
  /**
   * After `remote`'s code threw on build `runs`: true when the visitor is now given another build
   * of it (not one this tab found broken; not `runs` once more after a full load left it), `runs`
   * then marked broken for the tab and the page stale.
   */
  leaveThrowingBuild(remote: string, runs: string): Promise<boolean>;
}

export interface VersionCheckOptions {
  buildId: string;
  intervalMs: number;
  deps: VersionCheckDeps;
  /** Where the host's server answers this visitor's builds (`/remote-builds.json`); none: each remote's latest.json. */
  buildsUrl?: string;
  /** What the tab remembers (tab-memory.ts); sessionStorage unless a test gives its own. */
  storage?: () => Storage | undefined;
  /** A fresh telemetry ticket from `buildsUrl`'s answer, for builds the page keeps running. */
  onTicket?: (ticket: string) => void;
  /** The host's server asked for a check of `buildsUrl` on each navigation (`checkBuildsOnNavigation`). */
  checkOnNavigation?: boolean;
  /** The longest a navigation or an error page waits for `buildsUrl`'s answer. */
  timeoutMs?: number;
}

export function isSlowConnection(connection: ConnectionInfo | undefined): boolean {
  return connection?.saveData === true || connection?.effectiveType === 'slow-2g';
}

/** A remote's `builds/latest.json`, beside its manifest or remote entry. */
export function remoteLatestUrl(entryUrl: string): string {
  return new URL(DEPLOYMENT_FILE, entryUrl).toString();
}

function isBuildInfo(value: unknown): value is BuildInfo {
  return typeof value === 'object' && value !== null && typeof (value as BuildInfo).id === 'string';
}

export function createVersionCheck({
  buildId,
  intervalMs,
  deps,
  buildsUrl,
  storage = sessionStore,
  onTicket,
  checkOnNavigation = false,
  timeoutMs = DEFAULT_REMOTE_TIMEOUT_MS,
}: VersionCheckOptions): VersionCheck {
  const remotes = new Map<string, { url: string; id: string }>();
  /** The remotes watched through `buildsUrl`: the build the page runs of each. */
  const runningBuilds = new Map<string, string>();
  let stale = false;
  let timer: unknown;
  let running = false;
  let onNavigation = checkOnNavigation;
  /** The question asked at a link's intent, for the navigation that follows it. */
  let prepared: { at: number; asking: Promise<boolean> } | undefined;
  /** The router's first load is the document's own: the host's server has just given its builds. */
  let documentLoaded = false;

  async function getJson(url: string): Promise<unknown> {
    const separator = url.includes('?') ? '&' : '?';
    const response = await deps.fetch(`${url}${separator}${deps.now()}`, { cache: 'no-store' });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    return response.json();
  }

  async function latestId(url: string): Promise<string> {
    const body = await getJson(url);
    if (!isBuildInfo(body)) throw new Error(`${url} is not a build file`);
    return body.id;
  }

  /**
   * Asks the host's server which builds this visitor gets now, and whether they call for a full
   * load (`decide`, given the comparison's chunk); stale if so, and says so.
   */
  async function checkBuilds(
    url: string,
    decide: (answer: unknown, builds: VisitorBuilds) => boolean,
  ): Promise<boolean> {
    try {
      const [answer, builds] = await Promise.all([
        getJson(url),
        // One chunk with the switch to a last known good build (remote-loader.ts): both only ever run later.
        import(/* webpackChunkName: "last-known-good" */ './build-comparison'),
      ]);
      onNavigation = (answer as { checkOnNavigation?: unknown } | null)?.checkOnNavigation === true;
      if (decide(answer, builds)) {
        stale = true;
        return true;
      }
      const ticket = (answer as { ticket?: unknown } | null)?.ticket;
      if (typeof ticket === 'string') onTicket?.(ticket);
    } catch (error) {
      deps.log('Checking for new remote builds failed', error);
    }
    return false;
  }

  const pageState = () => ({ storage, now: deps.now(), log: deps.log, restored: deps.restoredByHistory() });
  const anyChanged = (answer: unknown, { reloadFor }: VisitorBuilds) => reloadFor(answer, runningBuilds, pageState());

  /** `asking`, or false once `timeoutMs` has passed without its answer (the answer still counts when it comes). */
  function bounded(asking: Promise<boolean>): Promise<boolean> {
    return new Promise((resolve) => {
      const handle = deps.setTimeout(() => resolve(false), timeoutMs);
      void asking.then((answer) => {
        deps.clearTimeout(handle);
        resolve(answer);
      });
    });
  }

  /** The question a navigation asks: the one its link's intent asked less than NAVIGATION_ANSWER_REUSE_MS ago, or a new one. */
  function askForNavigation(url: string): Promise<boolean> {
    const ready = prepared;
    prepared = undefined;
    if (ready && deps.now() - ready.at < NAVIGATION_ANSWER_REUSE_MS) return ready.asking;
    return checkBuilds(url, anyChanged);
  }

  const asksOnNavigation = () => !stale && onNavigation && runningBuilds.size > 0;

  async function checkOne(url: string, knownId: string, what: string): Promise<void> {
    try {
      if ((await latestId(url)) !== knownId) stale = true;
    } catch (error) {
      deps.log(`Checking for a new ${what} build failed`, error);
    }
  }

  async function prefetchMeta(): Promise<void> {
    const url = `${HOST_BUILDS_PATH}/${META_DIR_NAME}/${buildId}.json`;
    try {
      const response = await deps.fetch(url);
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
      await response.json();
    } catch (error) {
      deps.log('Fetching the build manifest failed', error);
    }
  }

  function schedule(): void {
    timer = deps.setTimeout(() => {
      void check.poll().finally(() => {
        if (running) schedule();
      });
    }, intervalMs);
  }

  const check: VersionCheck = {
    start() {
      if (running) return;
      running = true;
      if (!isSlowConnection(deps.connection())) {
        deps.setTimeout(() => void prefetchMeta(), META_PREFETCH_DELAY_MS);
      }
      schedule();
    },
    stop() {
      running = false;
      deps.clearTimeout(timer);
    },
    async poll() {
      await Promise.all([
        checkOne(`${HOST_BUILDS_PATH}/${DEPLOYMENT_FILE_NAME}`, buildId, 'host'),
        ...[...remotes].map(([name, remote]) => checkOne(remote.url, remote.id, `${name} remote`)),
        buildsUrl && runningBuilds.size > 0 && !stale ? checkBuilds(buildsUrl, anyChanged) : undefined,
      ]);
    },
    async trackRemote(name, entryUrl, build) {
      if (buildsUrl && build !== undefined) {
        // Again after a fallback: the build the page runs now.
        runningBuilds.set(name, build);
        remotes.delete(name);
        return;
      }
      if (remotes.has(name) || runningBuilds.has(name)) return;
      const url = remoteLatestUrl(entryUrl);
      try {
        remotes.set(name, { url, id: await latestId(url) });
      } catch (error) {
        deps.log(`Reading the ${name} remote's build id failed`, error);
      }
    },
    isStale: () => stale,
    async checkNavigation() {
      const first = !documentLoaded;
      documentLoaded = true;
      if (buildsUrl && !first && asksOnNavigation()) await bounded(askForNavigation(buildsUrl));
      return stale;
    },
    prepareNavigation() {
      if (!buildsUrl || !asksOnNavigation()) return;
      if (prepared && deps.now() - prepared.at < INTENT_QUESTION_GAP_MS) return;
      prepared = { at: deps.now(), asking: checkBuilds(buildsUrl, anyChanged) };
    },
    followsBuilds: () => buildsUrl !== undefined,
    async leaveThrowingBuild(remote, runs) {
      if (!buildsUrl) return false;
      return bounded(
        checkBuilds(buildsUrl, (answer, { leaveThrowingBuild }) =>
          leaveThrowingBuild(answer, remote, runs, pageState()),
        ),
      );
    },
  };
  return check;
}

export function browserVersionCheckDeps(): VersionCheckDeps {
  return {
    fetch: (input, init) => window.fetch(input, init),
    now: () => Date.now(),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    connection: () => (navigator as Navigator & { connection?: ConnectionInfo }).connection,
    log: (message, error) => console.warn(message, error),
    restoredByHistory: watchHistoryRestores(window),
  };
}
