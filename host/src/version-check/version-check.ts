/**
 * Notices new deployments: polls the host's `latest.json` and that of every remote it has loaded
 * (deployment-files.ts); once any names another build, the next navigation is a full page load.
 *
 * A page the host's server told which build of each remote it runs (`remoteBuilds`) follows the
 * visitor's own builds instead (builds-question.ts): each poll asks `buildsUrl` once, and the
 * page is stale when a loaded remote's build differs from the one it runs — never for a build
 * this tab found broken, nor twice for the same change (tab-memory.ts), unless the document came
 * back from history (restored-by-history.ts). While the host's server says a deployment is
 * unsettled (`checkBuildsOnNavigation`), each navigation asks too, so an abort or a rollback
 * reaches the page on its next navigation; and a remote's page that threw asks whether the
 * visitor is given another build of it now. See docs/decisions/0030 and 0036.
 */
import { DEFAULT_REMOTE_TIMEOUT_MS } from 'shared/runtime-config';
import { sessionStore } from '../federation/tab-memory';
import { BuildsQuestion } from './builds-question';
import { DeploymentFiles } from './deployment-files';
import type { ConnectionInfo, VersionCheckDeps } from './version-check-deps';

export { INTENT_QUESTION_GAP_MS, NAVIGATION_ANSWER_REUSE_MS } from './builds-question';
export { HOST_BUILDS_PATH, remoteLatestUrl } from './deployment-files';
export { browserVersionCheckDeps } from './version-check-deps';
export type { ConnectionInfo, VersionCheckDeps };

export const META_PREFETCH_DELAY_MS = 1000;

export interface VersionCheck {
  start(): void;
  stop(): void;
  /** Resolves when every check has answered or failed. */
  poll(): Promise<void>;
  /**
   * Starts watching a remote's builds once it has been loaded: with `build` (the one the page
   * runs) and a `buildsUrl`, by asking the host's server; else by its `latest.json`.
   */
  trackRemote(name: string, entryUrl: string, build?: string): Promise<void>;
  isStale(): boolean;
  /**
   * On a navigation: whether the page should be loaded anew, once the host's server has answered
   * when it asked for that on navigations (an answer later than `timeoutMs` counts as none). Not
   * at the router's first load: its builds are the ones the server has just given.
   */
  checkNavigation(): Promise<boolean>;
  /** A visitor is about to follow a link: asks now what `checkNavigation` will ask. */
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
  /** sessionStorage unless a test gives its own. */
  storage?: () => Storage | undefined;
  /** A fresh telemetry ticket from `buildsUrl`'s answer, for builds the page keeps running. */
  onTicket?: (ticket: string) => void;
  /** `checkBuildsOnNavigation` of the configuration. */
  checkOnNavigation?: boolean;
  /** The longest a navigation or an error page waits for `buildsUrl`'s answer. */
  timeoutMs?: number;
}

export function isSlowConnection(connection: ConnectionInfo | undefined): boolean {
  return connection?.saveData === true || connection?.effectiveType === 'slow-2g';
}

/** Polls every `intervalMs` once started, each poll after the last has ended. */
class Poller {
  private timer: unknown;
  private running = false;

  constructor(
    private readonly deps: VersionCheckDeps,
    private readonly intervalMs: number,
    private readonly poll: () => Promise<void>,
  ) {}

  start(): boolean {
    if (this.running) return false;
    this.running = true;
    this.schedule();
    return true;
  }

  stop(): void {
    this.running = false;
    this.deps.clearTimeout(this.timer);
  }

  private schedule(): void {
    this.timer = this.deps.setTimeout(() => {
      void this.poll().finally(() => {
        if (this.running) this.schedule();
      });
    }, this.intervalMs);
  }
}

export function createVersionCheck(options: VersionCheckOptions): VersionCheck {
  const { buildId, deps, buildsUrl } = options;
  const page = { stale: false };
  const files = new DeploymentFiles(deps, page);
  const question =
    buildsUrl === undefined
      ? undefined
      : new BuildsQuestion(
          buildsUrl,
          {
            deps,
            storage: options.storage ?? sessionStore,
            onTicket: options.onTicket,
            checkOnNavigation: options.checkOnNavigation ?? false,
            timeoutMs: options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS,
          },
          page,
        );
  /** The router's first load is the document's own. */
  let documentLoaded = false;
  const poll = async () => {
    await Promise.all([...files.checkAll(buildId), question?.poll()]);
  };
  const poller = new Poller(deps, options.intervalMs, poll);
  return {
    start() {
      if (!poller.start() || isSlowConnection(deps.connection())) return;
      deps.setTimeout(() => void files.prefetchMeta(buildId), META_PREFETCH_DELAY_MS);
    },
    stop: () => poller.stop(),
    poll,
    async trackRemote(name, entryUrl, build) {
      if (question && build !== undefined) {
        // Again after a fallback: the build the page runs now.
        question.run(name, build);
        files.unwatch(name);
        return;
      }
      if (files.watches(name) || question?.runs(name)) return;
      await files.watch(name, entryUrl);
    },
    isStale: () => page.stale,
    async checkNavigation() {
      const first = !documentLoaded;
      documentLoaded = true;
      if (!first) await question?.beforeNavigation();
      return page.stale;
    },
    prepareNavigation: () => question?.prepare(),
    followsBuilds: () => buildsUrl !== undefined,
    leaveThrowingBuild: (remote, runs) => question?.leaveThrowingBuild(remote, runs) ?? Promise.resolve(false),
  };
}
