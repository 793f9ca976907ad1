/**
 * Everything the bench starts, and stops again: API processes (`src/index.ts` through tsx, as
 * `npm run serve -w api` runs it; started, awaited and stopped by testbed/process), the bare
 * Fastify server, a throwaway PostgreSQL cluster and a temporary folder.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable } from 'node:stream';
import { Client } from 'pg';
import { freePort } from 'testbed/free-port';
import { type Cluster, startCluster } from 'testbed/postgres';
import { startProcess, stopProcess, waitUntilHealthy } from 'testbed/process';

export const API_DIR = join(__dirname, '..', '..', 'api');
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * A server's stdout and stderr: a pipe this process drains (as a container runtime reads a
 * container's output), counting lines and bytes (testbed keeps the last few KiB for error messages).
 */
export interface Output {
  bytes(): number;
  lines(): number;
}

function pipeOutput(streams: (Readable | null)[]): Output {
  let bytes = 0;
  let lines = 0;
  for (const stream of streams) {
    stream?.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    });
  }
  return { bytes: () => bytes, lines: () => lines };
}

export interface Server {
  name: string;
  baseUrl: string;
  pid: number;
  output: Output;
  stop(): Promise<void>;
}

export interface NodeServerOptions {
  name: string;
  /** Relative to api/ (where the server runs), or absolute. */
  script: string;
  env: Record<string, string>;
  /** Extra `node` flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** A GET that answers 200 once the server is ready. */
  readyPath: string;
}

/**
 * Starts `node --import tsx <script>` on a free loopback port (PORT in `env` as BENCH_PORT/API_PORT),
 * in the bench's process group (Ctrl-C reaches it as it reaches the bench), its pid the server's own.
 */
export async function startNodeServer(options: NodeServerOptions): Promise<Server> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = startProcess({
    name: options.name,
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), '--import', 'tsx', options.script],
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      API_HOST: '127.0.0.1',
      API_PORT: String(port),
      BENCH_PORT: String(port),
      ...options.env,
    },
    output: 'pipe',
    ownGroup: false,
    stopTimeoutMs: STOP_TIMEOUT_MS,
  });
  const output = pipeOutput([started.child.stdout, started.child.stderr]);
  const stop = () => stopProcess(started).then(() => undefined);
  try {
    await waitUntilHealthy(started, `${baseUrl}${options.readyPath}`, { timeoutMs: READY_TIMEOUT_MS });
  } catch (error) {
    await stop();
    throw error;
  }
  return { name: options.name, baseUrl, pid: started.pid, output, stop };
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

/** A bare Fastify server answering `body` on GET /api/gifts/:giftId (bare-server.ts, beside this file). */
export function startBare(body: string, nodeArgs?: string[]): Promise<Server> {
  return startNodeServer({
    name: 'bare Fastify',
    script: join(__dirname, 'bare-server.ts'),
    env: { BENCH_BODY: body },
    nodeArgs,
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
