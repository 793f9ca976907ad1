/**
 * Following deployments (`builds/latest.json`, shared/deployment) by polling, for every server
 * that does: one read of a part at a time, a failed read keeps what was known, and each part's
 * failures and recoveries reach the caller, who decides what to say of them.
 */
import { readDeploymentState, type DeploymentState } from 'shared/deployment';
import { errorMessage } from 'shared/http-error';
import { getBoundedJsonAnswer } from './bounded-fetch';

/** What a deployment file may weigh at most: it names a few build ids and a canary. */
export const MAX_DEPLOYMENT_FILE_BYTES = 64 * 1024;

export interface DeploymentFile {
  state: DeploymentState;
  lastModified: string | null;
}

/** The deployment file at `url`; rejects as getBoundedJsonAnswer does, and on a file naming no build. */
export async function fetchDeploymentFile(
  url: string,
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
): Promise<DeploymentFile> {
  const { body, headers } = await getBoundedJsonAnswer(url, timeoutMs, MAX_DEPLOYMENT_FILE_BYTES, fetchImpl);
  const state = readDeploymentState(body);
  if (!state) throw new Error(`${url} names no build id`);
  return { state, lastModified: headers.get('last-modified') };
}

export interface DeploymentPollerOptions {
  parts: readonly string[];
  /** Reads one part; a rejection is its failure. */
  read: (part: string) => Promise<void>;
  /** Each failed read, with the reason the part's read before failed for (undefined: it succeeded). */
  onFailure?: (part: string, reason: string, previous: string | undefined) => void;
  /** A read that succeeds after one that failed. */
  onRecovery?: (part: string) => void;
}

export class DeploymentPoller {
  private readonly reads = new Map<string, Promise<void>>();
  private readonly failures = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: DeploymentPollerOptions) {}

  /** Reads the part now, or joins the read under way; never rejects. */
  refresh(part: string): Promise<void> {
    const pending = this.reads.get(part);
    if (pending) return pending;
    const done = this.options
      .read(part)
      .then(
        () => {
          if (this.failures.delete(part)) this.options.onRecovery?.(part);
        },
        (error: unknown) => {
          const reason = errorMessage(error);
          this.options.onFailure?.(part, reason, this.failures.get(part));
          this.failures.set(part, reason);
        },
      )
      .finally(() => this.reads.delete(part));
    this.reads.set(part, done);
    return done;
  }

  /** The part's read under way, if any. */
  reading(part: string): Promise<void> | undefined {
    return this.reads.get(part);
  }

  /** Reads every part now; never rejects. */
  async refreshAll(): Promise<void> {
    await Promise.all(this.options.parts.map((part) => this.refresh(part)));
  }

  /** Runs `tick` every `intervalMs` on a timer that keeps no process alive. */
  start(intervalMs: number, tick: () => Promise<unknown> = () => this.refreshAll()): void {
    this.stop();
    this.timer = setInterval(() => void tick(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
