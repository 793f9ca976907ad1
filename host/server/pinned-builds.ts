/** Builds previews pin, read on first demand and kept (a few: each holds its render bundle); a page waits a bounded time. */
import { LRUCache } from 'lru-cache';
import { buildManifestUrl } from 'shared/deployment';
import { errorMessage } from 'shared/http-error';
import type { RemoteSnapshot } from './remote-snapshot';

/** A gate previews one build of one remote at a time. */
export const MAX_PINNED_BUILDS = 4;

export interface PinnedBuildsOptions {
  remotes: Readonly<Record<string, string>>;
  read: (remote: string, manifestUrl: string, buildId: string) => Promise<RemoteSnapshot>;
  timeoutMs: number;
  maxPinned: number;
  logOnce: (message: string) => void;
}

export class PinnedBuilds {
  private readonly kept: LRUCache<string, RemoteSnapshot>;
  /** By `remote/id`: the pages that ask meanwhile share the reading. */
  private readonly reads = new Map<string, Promise<RemoteSnapshot>>();

  constructor(private readonly options: PinnedBuildsOptions) {
    this.kept = new LRUCache({ max: options.maxPinned });
  }

  /** Lets a revoked build go, with its render bundle. */
  drop(remote: string, buildId: string): void {
    this.kept.delete(`${remote}/${buildId}`);
  }

  /** Never rejects. */
  async get(remote: string, buildId: string): Promise<RemoteSnapshot | undefined> {
    const { timeoutMs, logOnce } = this.options;
    let stopWaiting = () => {};
    const late = new Promise<undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      stopWaiting = () => clearTimeout(timer);
    });
    try {
      const snapshot = await Promise.race([this.read(remote, buildId), late]);
      if (!snapshot)
        logOnce(`the ${remote} remote's build ${buildId} was not read within ${timeoutMs} ms for a preview`);
      return snapshot;
    } catch (error) {
      logOnce(
        `a preview of the ${remote} remote's build ${buildId} pins nothing: its copy cannot be read (${errorMessage(error)})`,
      );
      return undefined;
    } finally {
      stopWaiting();
    }
  }

  private read(remote: string, buildId: string): Promise<RemoteSnapshot> {
    const key = `${remote}/${buildId}`;
    const kept = this.kept.get(key);
    if (kept) return Promise.resolve(kept);
    let reading = this.reads.get(key);
    if (!reading) {
      const root = this.options.remotes[remote];
      if (root === undefined) return Promise.reject(new Error(`no remote ${remote} is configured`));
      reading = this.options
        .read(remote, buildManifestUrl(root, buildId), buildId)
        .then((snapshot) => {
          this.kept.set(key, snapshot);
          return snapshot;
        })
        .finally(() => this.reads.delete(key));
      this.reads.set(key, reading);
    }
    return reading;
  }
}
