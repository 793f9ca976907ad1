/**
 * Everything the bench starts, and stops again: API processes (`src/index.ts` through tsx, as
 * `npm run serve -w api` runs it), the bare Fastify server, a throwaway PostgreSQL cluster and a
 * temporary folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable } from 'node:stream';
import { Client } from 'pg';
import { freePort } from 'testbed/free-port';
import { type Cluster, startCluster } from 'testbed/postgres';
import { send } from './http';

export const API_DIR = join(__dirname, '..', '..', 'api');
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const TAIL_BYTES = 4096;

/**
 * A server's stdout and stderr: a pipe this process drains (as a container runtime reads a
 * container's output), counting lines and bytes and keeping the last few KiB for error messages.
 */
export interface Output {
  bytes(): number;
  lines(): number;
  recent(): string;
}

function pipeOutput(streams: (Readable | null)[]): Output {
  let bytes = 0;
  let lines = 0;
  let tail = '';
  for (const stream of streams) {
    stream?.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
      tail = (tail + chunk.subarray(-TAIL_BYTES).toString('utf8')).slice(-TAIL_BYTES);
    });
  }
  return { bytes: () => bytes, lines: () => lines, recent: () => tail };
}

export interface Server {
  name: string;
  baseUrl: string;
  pid: number;
  output: Output;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** For exit paths that cannot wait: SIGKILL every child still running. */
export function killAllSync(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (!running.has(child)) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited(child);
  clearTimeout(timer);
  running.delete(child);
}

export interface NodeServerOptions {
  name: string;
  /** Relative to api/. */
  script: string;
  env: Record<string, string>;
  /** Extra `node` flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** A GET that answers 200 once the server is ready. */
  readyPath: string;
}

/** Starts `node --import tsx <script>` on a free loopback port (PORT in `env` as BENCH_PORT/API_PORT). */
export async function startNodeServer(options: NodeServerOptions): Promise<Server> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', options.script], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      API_HOST: '127.0.0.1',
      API_PORT: String(port),
      BENCH_PORT: String(port),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const output = pipeOutput([child.stdout, child.stderr]);
  const stop = () => stopChild(child);
  const server: Server = { name: options.name, baseUrl, pid: child.pid ?? -1, output, stop };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (let attempt = 0; ; attempt += 1) {
    const problem =
      child.exitCode !== null
        ? `exited (${child.exitCode})`
        : Date.now() > deadline
          ? `was not ready within ${READY_TIMEOUT_MS} ms`
          : undefined;
    if (problem) {
      const text = output.recent();
      await stop();
      throw new Error(`${options.name} ${problem}:\n${text}`);
    }
    const ready = await send(baseUrl, options.readyPath, { timeoutMs: 2_000 }).then(
      (reply) => reply.status === 200,
      () => false,
    );
    if (ready) return server;
    await new Promise((resolve) => setTimeout(resolve, Math.min(50 * (attempt + 1), 250)));
  }
}

/** The API (`src/index.ts`) with production-like settings: LOG_LEVEL=info unless `env` says otherwise. */
export function startApi(name: string, env: Record<string, string>, nodeArgs?: string[]): Promise<Server> {
  return startNodeServer({
    name,
    script: 'src/index.ts',
    env: { LOG_LEVEL: 'info', ...env },
    nodeArgs,
    readyPath: '/api/health',
  });
}

/** A bare Fastify server answering `body` on GET /api/gifts/:giftId (bench/bare-server.ts). */
export function startBare(body: string): Promise<Server> {
  return startNodeServer({
    name: 'bare Fastify',
    script: 'bench/bare-server.ts',
    env: { BENCH_BODY: body },
    readyPath: '/api/health',
  });
}

export interface Workspace {
  dir: string;
  /** The default catalogue with practically unlimited stock: plays keep writing. */
  catalogueFile: string;
  remove(): void;
}

export function createWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'api-bench-'));
  const catalogue = JSON.parse(readFileSync(join(API_DIR, 'catalogue.json'), 'utf8')) as {
    prizes: Record<string, unknown>[];
  };
  const catalogueFile = join(dir, 'catalogue.json');
  writeFileSync(
    catalogueFile,
    JSON.stringify({ ...catalogue, prizes: catalogue.prizes.map((prize) => ({ ...prize, stock: 100_000_000 })) }),
  );
  return { dir, catalogueFile, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Postgres {
  cluster: Cluster;
  /** A new empty database; its URL. */
  createDatabase(name: string): Promise<string>;
}

export async function startPostgres(): Promise<Postgres> {
  const cluster = await startCluster();
  return {
    cluster,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      const admin = new Client({ connectionString: cluster.url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      const url = new URL(cluster.url);
      url.pathname = `/${name}`;
      return url.toString();
    },
  };
}
