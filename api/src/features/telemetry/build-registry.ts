/**
 * The build ids each part's deployment names now (`builds/latest.json`: current, canary,
 * previous), so a browser's build id can be a label; any other id is `other`, so a browser cannot
 * choose label values (shared/telemetry-labels). Read every `pollMs`, and again when a browser
 * names a build not known (`learn`), at most every REREAD_MIN_MS. Each part's running canary is
 * kept too (canary-gauges.ts exports it).
 */
import { type FastifyBaseLogger } from 'fastify';
import { type CanaryState, type DeploymentState } from 'shared/deployment';
import { OTHER, UNKNOWN_BUILD } from 'shared/telemetry';
import { DeploymentPoller, fetchDeploymentFile, MAX_DEPLOYMENT_FILE_BYTES } from 'server/deployment-poller';
/** The longest wait for one part's answer. */
export const BUILDS_FETCH_TIMEOUT_MS = 3_000;
/** A part is read again on a browser's unknown build at most this often. */
export const REREAD_MIN_MS = 500;
export const MAX_BUILD_FILE_BYTES = MAX_DEPLOYMENT_FILE_BYTES;

export interface BuildRegistryOptions {
  /** Each part's `builds/latest.json` URL: the host's, the registry's remotes' and the added ones'. */
  sources: Readonly<Record<string, string>>;
  /** 0: nothing is read, every id is `other`. */
  pollMs: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  timeoutMs?: number;
  clock?: () => number;
  /** Run after each read of every part, the first and each poll's, before `start` resolves. */
  afterReadAll?: () => Promise<void>;
}

interface PartState {
  ids: string[];
  canary: CanaryState | undefined;
  known: Set<string>;
  lastReadAt: number;
}

/** The builds a deployment names: the current one, its canary and the one before it. */
function deploymentIdsOf(state: DeploymentState): string[] {
  return [state.id, state.canary?.id, state.previous].filter((id): id is string => id !== undefined);
}

/** A part's running canary, as its deployment names it. */
export interface PartCanary extends CanaryState {
  part: string;
}

const newPartState = (): PartState => ({
  ids: [],
  canary: undefined,
  known: new Set(),
  lastReadAt: Number.NEGATIVE_INFINITY,
});

export class BuildRegistry {
  private readonly parts: Map<string, PartState>;
  private readonly poller: DeploymentPoller;
  private started = false;
  private readonly timeoutMs: number;
  private readonly clock: () => number;

  constructor(private readonly options: BuildRegistryOptions) {
    this.timeoutMs = options.timeoutMs ?? BUILDS_FETCH_TIMEOUT_MS;
    this.clock = options.clock ?? Date.now;
    this.parts = new Map(Object.keys(options.sources).map((part) => [part, newPartState()]));
    this.poller = new DeploymentPoller({
      parts: [...this.parts.keys()],
      read: (part) => this.readOnce(part, this.parts.get(part) as PartState),
      onFailure: (part, reason, previous) => {
        if (previous !== undefined) return;
        const known = this.parts.get(part)?.ids.length;
        options.log.warn({ part, reason, known }, 'builds: cannot read the part’s builds; keeping the ones known');
      },
      onRecovery: (part) => options.log.info({ part }, 'builds: the part’s builds can be read again'),
    });
  }

  /** Reads every part once (resolves when each has answered or failed), then every `pollMs`. */
  async start(): Promise<void> {
    if (this.options.pollMs === 0 || this.started) return;
    this.started = true;
    this.poller.start(this.options.pollMs, () => this.poll());
    await this.poll();
  }

  private async poll(): Promise<void> {
    await this.readAll();
    await this.options.afterReadAll?.();
  }

  stop(): void {
    this.poller.stop();
    this.started = false;
  }

  /** The builds the part's deployment names: current, canary, previous. */
  known(part: string): readonly string[] {
    return this.parts.get(part)?.ids ?? [];
  }

  /** Each part's running canary, as last read: at most one a part. */
  canaries(): PartCanary[] {
    return [...this.parts].flatMap(([part, state]) => (state.canary ? [{ ...state.canary, part }] : []));
  }

  /**
   * The label of `build` for `part`: itself when the part's deployment names it, `unknown`
   * when the page had none, else `other` (and the part is read again soon, in case it is new).
   */
  label(part: string, build: string): string {
    if (build === UNKNOWN_BUILD) return UNKNOWN_BUILD;
    const state = this.parts.get(part);
    if (state?.known.has(build)) return build;
    if (state && this.options.pollMs > 0 && this.clock() - state.lastReadAt >= REREAD_MIN_MS) void this.read(part);
    return OTHER;
  }

  /** Per part, the read `learn` has scheduled: batches naming unknown builds meanwhile share it. */
  private readonly learning = new Map<string, Promise<void>>();

  /**
   * Reads again, and waits for, each part of which `named` gives a build it does not know, with a
   * read that starts after the batch arrived: a build made current or started as a canary since
   * the last read is known before the batch naming it is labelled. A read made less than
   * REREAD_MIN_MS ago is followed by one once that time has passed, and batches meanwhile share
   * it, so made-up ids make a part read no more often than that. Never rejects; each read is
   * bounded by the fetch timeout.
   */
  async learn(named: Iterable<{ part: string; build: string }>): Promise<void> {
    if (this.options.pollMs === 0) return;
    const parts = new Set<string>();
    for (const { part, build } of named) {
      const state = this.parts.get(part);
      if (state && build !== UNKNOWN_BUILD && !state.known.has(build)) parts.add(part);
    }
    await Promise.all([...parts].map((part) => this.learnPart(part)));
  }

  private learnPart(part: string): Promise<void> {
    const scheduled = this.learning.get(part);
    if (scheduled) return scheduled;
    const state = this.parts.get(part) as PartState;
    const wait = Math.max(0, state.lastReadAt + REREAD_MIN_MS - this.clock());
    const done = (async () => {
      // A read under way may have started before the build was published: wait for it, then read.
      await this.poller.reading(part);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await this.read(part);
    })().finally(() => this.learning.delete(part));
    this.learning.set(part, done);
    return done;
  }

  /** Reads every part now; never rejects. */
  readAll(): Promise<void> {
    return this.poller.refreshAll();
  }

  /** Reads the part's build files now (or joins the read under way); never rejects. */
  read(part: string): Promise<void> {
    return this.parts.has(part) ? this.poller.refresh(part) : Promise.resolve();
  }

  private async readOnce(part: string, state: PartState): Promise<void> {
    state.lastReadAt = this.clock();
    const url = this.options.sources[part] as string;
    const { state: deployment } = await fetchDeploymentFile(url, this.timeoutMs);
    const ids = deploymentIdsOf(deployment);
    if (ids[0] !== state.ids[0]) this.options.log.info({ part, build: ids[0] }, 'builds: a new build is current');
    state.ids = ids;
    state.known = new Set(ids);
    state.canary = deployment.canary;
  }
}
