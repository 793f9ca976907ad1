/** A remote's render workers, one render at a time each; a worker that crashes, hangs or outgrows its memory is replaced. */
import type { RenderedDataPage, RenderRequest } from 'shared/render-contract';
import { RenderWorker, type RenderWorkerLimits, type WorkerReply } from './render-worker-process';

export interface RenderPoolOptions extends RenderWorkerLimits {
  size: number;
  /** A render's, or a wait for a worker's. */
  timeoutMs: number;
}

/** The stable build, a canary, previews. */
const MAX_BUNDLES = 8;
/** Past this, the page is rendered in the browser at once. */
const MAX_WAITING = 64;
/** Loading parses hundreds of KB of script. */
const LOAD_DEADLINE_FACTOR = 5;

function failed(reply: WorkerReply): WorkerReply {
  if (reply.error !== undefined) throw new Error(reply.error);
  return reply;
}

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

  async load(key: string, code: string): Promise<void> {
    await this.withWorker(async (worker) => this.ensureLoaded(worker, key, code));
  }

  render(key: string, code: string, request: RenderRequest): Promise<RenderedDataPage> {
    return this.withWorker(async (worker) => {
      await this.ensureLoaded(worker, key, code);
      return pageOf(await worker.send({ render: key, request }, this.options.timeoutMs));
    });
  }

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
