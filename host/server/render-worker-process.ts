/**
 * One render worker process (render-worker.cjs) as the host's server holds it: started locked
 * down, sent one message at a time over its stdin, killed when an answer is late or too large.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

export const RENDER_WORKER_SCRIPT = join(__dirname, 'render-worker.cjs');

/** Beyond the heap: V8 and Node reserve some at start-up. */
const ADDRESS_SPACE_BEYOND_HEAP_MB = 1024;
/** The largest page is tens of KB. */
const MAX_ANSWER_CHARS = 8 * 1024 * 1024;

export interface RenderWorkerLimits {
  /** MB. */
  memoryMb: number;
}

export interface WorkerReply {
  id: number;
  ok?: true;
  error?: string;
  page?: unknown;
}

interface Pending {
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

/** The shell sets the address-space cap (Node cannot) and becomes Node, which may read only its script. */
export function workerCommand(
  { memoryMb }: RenderWorkerLimits,
  entry: readonly string[] = [RENDER_WORKER_SCRIPT],
): [string, string[]] {
  const addressSpaceKb = (memoryMb + ADDRESS_SPACE_BEYOND_HEAP_MB) * 1024;
  return [
    '/bin/sh',
    [
      '-c',
      'ulimit -v "$1" && shift && exec "$@"',
      'render-worker',
      String(addressSpaceKb),
      process.execPath,
      '--experimental-permission',
      `--allow-fs-read=${RENDER_WORKER_SCRIPT}`,
      '--no-addons',
      '--disallow-code-generation-from-strings',
      `--max-old-space-size=${memoryMb}`,
      '--no-warnings',
      ...entry,
    ],
  ];
}

export class RenderWorker {
  readonly loaded = new Set<string>();
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private received = '';
  private exited = false;
  private readonly exit: Promise<void>;

  constructor(limits: RenderWorkerLimits) {
    const [command, args] = workerCommand(limits);
    // The shell adds PWD to the empty environment; the worker's script clears it.
    this.child = spawn(command, args, { env: {}, stdio: ['pipe', 'pipe', 'ignore'] });
    this.exit = new Promise((resolve) => this.child.once('close', () => resolve()));
    this.child.once('exit', (code, signal) => this.failAll(`the render worker stopped (${signal ?? `exit ${code}`})`));
    this.child.once('error', (error) => this.failAll(`the render worker did not start (${error.message})`));
    // A worker that died has no reader; what is still being written to it is dropped.
    this.child.stdin.on('error', () => undefined);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.receive(chunk));
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Kills the worker when no answer comes within `deadlineMs`. */
  send(message: Record<string, unknown>, deadlineMs?: number): Promise<WorkerReply> {
    if (this.exited) return Promise.reject(new Error('the render worker has stopped'));
    const id = this.nextId++;
    return new Promise<WorkerReply>((resolve, reject) => {
      const pending: Pending = { resolve, reject };
      if (deadlineMs !== undefined) {
        pending.timer = setTimeout(() => this.kill(`no answer within ${deadlineMs} ms`), deadlineMs);
      }
      this.pending.set(id, pending);
      this.child.stdin.write(`${JSON.stringify({ ...message, id })}\n`);
    });
  }

  kill(reason = 'the render worker was stopped'): Promise<void> {
    this.failAll(reason);
    this.child.kill('SIGKILL');
    return this.exit;
  }

  private receive(chunk: string): void {
    this.received += chunk;
    let end = this.received.indexOf('\n');
    while (end >= 0) {
      const line = this.received.slice(0, end);
      this.received = this.received.slice(end + 1);
      this.answer(line);
      end = this.received.indexOf('\n');
    }
    if (this.received.length > MAX_ANSWER_CHARS) void this.kill('its answer is too large for a page');
  }

  private answer(line: string): void {
    let reply: WorkerReply;
    try {
      reply = JSON.parse(line) as WorkerReply;
    } catch {
      void this.kill('it wrote something that is not an answer');
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    clearTimeout(pending.timer);
    pending.resolve(reply);
  }

  private failAll(reason: string): void {
    this.exited = true;
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new Error(reason));
    }
    this.pending.clear();
  }
}
