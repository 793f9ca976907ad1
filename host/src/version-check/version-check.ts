/** Notices new deployments, so the next navigation is a full load (docs/decisions/0030, 0036). */
import { DEFAULT_REMOTE_TIMEOUT_MS } from 'shared/runtime-config-checks';
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
  poll(): Promise<void>;
  /** With `build` and a `buildsUrl`, through the host's server; else the remote's `latest.json`. */
  trackRemote(name: string, entryUrl: string, build?: string): Promise<void>;
  isStale(): boolean;
  /** Whether a navigation should be a full load; not the router's first, whose builds are fresh. */
  checkNavigation(): Promise<boolean>;
  prepareNavigation(): void;
  followsBuilds(): boolean;
  /** After `remote`'s build `runs` threw: true, `runs` marked broken, when the visitor is given another now. */
  leaveThrowingBuild(remote: string, runs: string): Promise<boolean>;
}

export interface VersionCheckOptions {
  buildId: string;
  intervalMs: number;
  deps: VersionCheckDeps;
  /** `/remote-builds.json`; none: each remote's latest.json. */
  buildsUrl?: string;
  storage?: () => Storage | undefined;
  onTicket?: (ticket: string) => void;
  checkOnNavigation?: boolean;
  timeoutMs?: number;
}

export function isSlowConnection(connection: ConnectionInfo | undefined): boolean {
  return connection?.saveData === true || connection?.effectiveType === 'slow-2g';
}

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
        // Again after a fallback.
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
