/** Asking the host's server which builds this visitor gets now (`buildsUrl`). */
import type * as BuildComparisonModule from './build-comparison';
import { freshJson, type VersionCheckDeps } from './version-check-deps';

/** A type only: its code stays out of the page's first script. */
type BuildComparison = typeof BuildComparisonModule;

/** The host's servers read a deployment every 5 s (REMOTE_REFRESH_MS): an answer this recent is as fresh as any. */
export const NAVIGATION_ANSWER_REUSE_MS = 5000;
/** Pointing at one link after another asks at most once in this long. */
export const INTENT_QUESTION_GAP_MS = 1000;

export interface QuestionOptions {
  deps: VersionCheckDeps;
  storage: () => Storage | undefined;
  onTicket?: (ticket: string) => void;
  checkOnNavigation: boolean;
  timeoutMs: number;
}

export class BuildsQuestion {
  private readonly running = new Map<string, string>();
  private onNavigation: boolean;
  private prepared: { at: number; asking: Promise<boolean> } | undefined;

  constructor(
    private readonly url: string,
    private readonly options: QuestionOptions,
    private readonly page: { stale: boolean },
  ) {
    this.onNavigation = options.checkOnNavigation;
  }

  run(remote: string, build: string): void {
    this.running.set(remote, build);
  }

  runs(remote: string): boolean {
    return this.running.has(remote);
  }

  poll(): Promise<boolean> | undefined {
    return this.running.size > 0 && !this.page.stale ? this.ask(this.anyChanged) : undefined;
  }

  async beforeNavigation(): Promise<void> {
    if (!this.asksOnNavigation()) return;
    const ready = this.prepared;
    this.prepared = undefined;
    const fresh = ready && this.options.deps.now() - ready.at < NAVIGATION_ANSWER_REUSE_MS;
    await this.bounded(fresh ? ready.asking : this.ask(this.anyChanged));
  }

  prepare(): void {
    if (!this.asksOnNavigation()) return;
    const now = this.options.deps.now();
    if (this.prepared && now - this.prepared.at < INTENT_QUESTION_GAP_MS) return;
    this.prepared = { at: now, asking: this.ask(this.anyChanged) };
  }

  leaveThrowingBuild(remote: string, runs: string): Promise<boolean> {
    return this.bounded(
      this.ask((answer, { leaveThrowingBuild }) => leaveThrowingBuild(answer, remote, runs, this.pageState())),
    );
  }

  private asksOnNavigation(): boolean {
    return !this.page.stale && this.onNavigation && this.running.size > 0;
  }

  private pageState() {
    const { storage, deps } = this.options;
    return { storage, now: deps.now(), log: deps.log, restored: deps.restoredByHistory() };
  }

  private readonly anyChanged = (answer: unknown, { reloadFor }: BuildComparison) =>
    reloadFor(answer, this.running, this.pageState());

  private async ask(decide: (answer: unknown, comparison: BuildComparison) => boolean): Promise<boolean> {
    const { deps, onTicket } = this.options;
    try {
      const [answer, comparison] = await Promise.all([
        freshJson(deps, this.url),
        // One chunk with the switch to a last known good build: both run only later.
        import(/* webpackChunkName: "last-known-good" */ './build-comparison'),
      ]);
      this.onNavigation = (answer as { checkOnNavigation?: unknown } | null)?.checkOnNavigation === true;
      if (decide(answer, comparison)) {
        this.page.stale = true;
        return true;
      }
      const ticket = (answer as { ticket?: unknown } | null)?.ticket;
      if (typeof ticket === 'string') onTicket?.(ticket);
    } catch (error) {
      deps.log('Checking for new remote builds failed', error);
    }
    return false;
  }

  /** False after `timeoutMs`; a later answer still counts. */
  private bounded(asking: Promise<boolean>): Promise<boolean> {
    const { deps, timeoutMs } = this.options;
    return new Promise((resolve) => {
      const handle = deps.setTimeout(() => resolve(false), timeoutMs);
      void asking.then((answer) => {
        deps.clearTimeout(handle);
        resolve(answer);
      });
    });
  }
}
