/**
 * A remote's render workers: a few processes (render-worker-process.ts) that run its render
 * bundles, one render at a time each. A bundle is loaded into a worker once, the first time that
 * worker renders with it, and unloaded when the worker holds too many others used since; a worker
 * that crashes, hangs past the deadline or outgrows its memory is dropped, and a new one is
 * started when a render needs it.
 */
import type { RenderedDataPage, RenderRequest } from 'shared/render-contract';
import { RenderWorker, type RenderWorkerLimits, type WorkerReply } from './render-worker-process';

export interface RenderPoolOptions extends RenderWorkerLimits {
  /** Processes at most (RENDER_WORKERS). */
  size: number;
  /** Longest a render, or a wait for a free worker, may take (RENDER_TIMEOUT_MS). */
  timeoutMs: number;
}

/** Bundles a worker keeps, the least recently used unloaded first: the stable build, a canary, previews. */
const MAX_BUNDLES = 8;
/** Renders waiting for a worker at most: past that, the page is rendered in the browser at once. */
const MAX_WAITING = 64;
/** Loading a bundle parses and runs hundreds of KB of script: it gets longer than a render. */
const LOAD_DEADLINE_FACTOR = 5;

function failed(reply: WorkerReply): WorkerReply {
  if (reply.error !== undefined) throw new Error(reply.error);
  return reply;
}

/** The worker's answer if it is a page, `{ html, state }`, and nothing more; throws otherwise. */
function pageOf(reply: WorkerReply): RenderedDataPage {
  const page = failed(reply).page as { html?: unknown; state?: unknown } | null | undefined;
  if (typeof page?.html !== 'string' || typeof page.state !== 'object' || page.state === null) {
    throw new Error('render returned no page');
  }
  return { html: page.html, state: page.state };
}

export class RenderPool {
  private readonly idle: RenderWorker[] = [];
  private readonly busy = new Set<RenderWorker>();
  private readonly waiting: Array<(worker: RenderWorker | undefined) => void> = [];
  private closed = false;

  constructor(private readonly options: RenderPoolOptions) {}

  /** Loads a bundle under `key` (its digest); throws what its loading throws, or when it exports no `render`. */
  async load(key: string, code: string): Promise<void> {
    await this.withWorker(async (worker) => this.ensureLoaded(worker, key, code));
  }

  /**
   * Renders with the bundle `code` under `key`, loading it first into a worker that lacks it;
   * throws when it fails, is late or answers no page.
   */
  render(key: string, code: string, request: RenderRequest): Promise<RenderedDataPage> {
    return this.withWorker(async (worker) => {
      await this.ensureLoaded(worker, key, code);
      return pageOf(await worker.send({ render: key, request }, this.options.timeoutMs));
    });
  }

  /** Stops every worker; renders after this fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake(undefined);
    await Promise.all([...this.idle.splice(0), ...this.busy].map((worker) => worker.kill()));
  }

  private async ensureLoaded(worker: RenderWorker, key: string, code: string): Promise<void> {
    if (worker.loaded.delete(key)) {
      worker.loaded.add(key);
      return;
    }
    failed(await worker.send({ load: key, code }, this.options.timeoutMs * LOAD_DEADLINE_FACTOR));
    worker.loaded.add(key);
    for (const unused of [...worker.loaded].slice(0, -MAX_BUNDLES)) {
      worker.loaded.delete(unused);
      void worker.send({ unload: unused }).catch(() => undefined);
    }
  }

  private async withWorker<T>(task: (worker: RenderWorker) => Promise<T>): Promise<T> {
    const worker = await this.acquire();
    try {
      return await task(worker);
    } finally {
      this.release(worker);
    }
  }

  private acquire(): Promise<RenderWorker> {
    if (this.closed) return Promise.reject(new Error('the render workers are stopped'));
    // A worker can die idle (its memory cap, a signal): it is not handed out.
    while (this.idle.length > 0 && !this.idle[this.idle.length - 1]?.alive) this.idle.pop();
    const worker = this.idle.pop() ?? (this.busy.size < this.options.size ? new RenderWorker(this.options) : undefined);
    if (worker) {
      this.busy.add(worker);
      return Promise.resolve(worker);
    }
    if (this.waiting.length >= MAX_WAITING) return Promise.reject(new Error('every render worker is busy'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(wake), 1);
        reject(new Error(`no render worker was free within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      const wake = (free: RenderWorker | undefined) => {
        clearTimeout(timer);
        if (free) resolve(free);
        else reject(new Error('the render workers are stopped'));
      };
      this.waiting.push(wake);
    });
  }

  /** A live worker goes to the next render waiting, or back to the idle ones; a dead one frees its place. */
  private release(worker: RenderWorker): void {
    this.busy.delete(worker);
    if (this.closed) return;
    const next = this.waiting.shift();
    if (!next) {
      if (worker.alive) this.idle.push(worker);
      return;
    }
    const handed = worker.alive ? worker : new RenderWorker(this.options);
    this.busy.add(handed);
    next(handed);
  }
}
