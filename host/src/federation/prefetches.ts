/** A remote's files fetched ahead of need: best effort, each once. */
import { withTimeout } from './load-attempts';

export interface PreloadOptions {
  nameOrAlias: string;
  exposes?: string[];
  resourceCategory?: 'all' | 'sync';
  share?: boolean;
  depsRemote?: boolean;
}

const ENTRY_ONLY = '(entry only)';

/** `sync`: `all` would add the remote's copies of shared libraries (~61 KB) the host provides. */
function preloadOptions(remote: string, module: string | undefined): PreloadOptions {
  // An expose no remote has: only the manifest and entry.
  const exposes = module ? [module] : [ENTRY_ONLY];
  return { nameOrAlias: remote, exposes, resourceCategory: 'sync', share: false, depsRemote: false };
}

const isOf = (remote: string, key: string) => key === remote || key.startsWith(`${remote}/`);

export class Prefetches {
  /** By `remote` or `remote/module`; they never reject. */
  private readonly started = new Map<string, Promise<void>>();

  constructor(
    private readonly preloadRemote: (options: PreloadOptions[]) => Promise<void>,
    private readonly timeoutMs: number,
    private readonly log: (message: string, error: unknown) => void,
  ) {}

  has(key: string): boolean {
    return this.started.has(key);
  }

  start(remote: string, module: string | undefined): void {
    const key = module ? `${remote}/${module}` : remote;
    const done = this.preloadRemote([preloadOptions(remote, module)]).catch((error: unknown) =>
      this.log(`Prefetching the ${remote} remote failed; it will be loaded when needed.`, error),
    );
    this.started.set(key, done);
  }

  /** A load waits for these so the entry is fetched once, never longer than a load itself may take. */
  inFlight(remote: string): Promise<unknown> {
    const pending = [...this.started].filter(([key]) => isOf(remote, key)).map(([, done]) => done);
    if (pending.length === 0) return Promise.resolve();
    return withTimeout(Promise.all(pending), this.timeoutMs, () => new Error('prefetch still running')).catch(
      () => undefined,
    );
  }

  forget(remote: string): void {
    for (const key of [...this.started.keys()]) if (isOf(remote, key)) this.started.delete(key);
  }
}
