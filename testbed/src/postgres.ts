/**
 * A real PostgreSQL for the tests: TEST_DATABASE_URL, or a throwaway cluster per jest run on a free
 * loopback port, one database per test file. As root the cluster runs as the `postgres` user, since
 * PostgreSQL refuses root.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './free-port';
import { type RunningProcess, startProcess, untilExited } from './process';

const run = promisify(execFile);

export const ADMIN_URL_ENV = 'API_TEST_POSTGRES_ADMIN_URL';
const START_TIMEOUT_MS = 60_000;
const POLL_MS = 100;
const GUARD_EXIT_MS = 10_000;

const HOW_TO_GET_POSTGRES =
  'The API tests need a real PostgreSQL server. Install the server binaries (Debian/Ubuntu: `apt-get install postgresql`), ' +
  'or point TEST_DATABASE_URL at a server where the role may CREATE DATABASE (e.g. postgres://postgres:postgres@localhost:5432/postgres).';

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  /** The server itself, which the tests run in the foreground (see startCluster). */
  postgres: string;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

export function findPostgresBinaries(): PostgresBinaries {
  const initdb = onPath('initdb');
  const pgCtl = onPath('pg_ctl');
  if (initdb && pgCtl) return { initdb, pgCtl, postgres: onPath('postgres') ?? join(dirname(pgCtl), 'postgres') };
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')))
      return { initdb: join(bin, 'initdb'), pgCtl: join(bin, 'pg_ctl'), postgres: join(bin, 'postgres') };
  }
  throw new Error(`No PostgreSQL server binaries (initdb, pg_ctl) on PATH or in ${root}/*/bin. ${HOW_TO_GET_POSTGRES}`);
}

interface RunAs {
  command: (program: string, args: string[]) => [string, string[]];
  uid?: number;
  gid?: number;
}

function runAs(): RunAs {
  if (process.getuid?.() !== 0) return { command: (program, args) => [program, args] };
  let uid: number;
  let gid: number;
  try {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  } catch {
    throw new Error(
      `PostgreSQL refuses to run as root and there is no \`postgres\` system user. ${HOW_TO_GET_POSTGRES}`,
    );
  }
  return { command: (program, args) => ['runuser', ['-u', 'postgres', '--', program, ...args]], uid, gid };
}

export interface Cluster {
  url: string;
  /** `immediate` stops it as a crash would: it recovers from its log at the next start. */
  pause(mode?: 'fast' | 'immediate'): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
  stopSync(): void;
}

export interface ClusterOptions {
  /**
   * As durable as production, so an acknowledged commit survives an immediate stop; off by default,
   * as it costs seconds.
   */
  durable?: boolean;
  dir?: string;
  port?: number;
}

/** A cluster whose guard was killed with its starter can outlive both: stopped here. */
export async function stopLeftCluster(dir: string): Promise<boolean> {
  const data = join(dir, 'data');
  if (!existsSync(join(data, 'postmaster.pid'))) return false;
  const [file, argv] = runAs().command(findPostgresBinaries().pgCtl, ['stop', '-D', data, '-m', 'immediate', '-w']);
  await run(file, argv, { timeout: 60_000 }).catch(() => undefined);
  return true;
}

/** Resolves once the server answers a query; a cluster recovering from its log refuses until then. */
async function untilAccepting(server: RunningProcess, url: string, log: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (server.hasExited()) throw new Error(`postgres exited (code ${await server.exited})`);
      if (Date.now() > deadline)
        throw new Error(
          `postgres did not accept connections within ${START_TIMEOUT_MS} ms at ${log}: ${(error as Error).message}`,
        );
    } finally {
      await client.end().catch(() => undefined);
    }
    await delay(POLL_MS);
  }
}

/** A cluster of the tests' own: trust on its socket and loopback, no sync while it is made. */
function initdbArgs(data: string): string[] {
  return ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'];
}

/** Durability costs seconds a test; only a test of what survives a crash asks for it. */
function postgresArgs(data: string, socketDir: string, port: number, durable: boolean): string[] {
  const settings = ['listen_addresses=127.0.0.1', 'max_connections=200'];
  if (!durable) settings.push('fsync=off', 'synchronous_commit=off', 'full_page_writes=off');
  return ['-D', data, '-p', String(port), '-k', socketDir, ...settings.flatMap((setting) => ['-c', setting])];
}

/**
 * The server runs in the foreground under testbed's process guard (`exitWithParent`), not
 * daemonised by pg_ctl: when the process that started it dies, killed or timed out, the guard
 * takes it down rather than leaving it running with nobody to stop it.
 */
export async function startCluster(clusterOptions: ClusterOptions = {}): Promise<Cluster> {
  const binaries = findPostgresBinaries();
  const as = runAs();
  const dir = clusterOptions.dir ?? mkdtempSync(join(tmpdir(), 'api-test-pg-'));
  if (clusterOptions.dir) mkdirSync(dir, { recursive: true });
  if (as.uid !== undefined && as.gid !== undefined) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const exec = async (program: string, args: string[]) => {
    const [file, argv] = as.command(program, args);
    await run(file, argv, { timeout: 60_000 });
  };
  let server: RunningProcess | undefined;
  let stopped = false;
  const stopArgs = ['stop', '-D', data, '-m', 'immediate', '-w'];
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  try {
    await exec(binaries.initdb, initdbArgs(data));
    const port = clusterOptions.port ?? (await freePort());
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const serverArgs = postgresArgs(data, dir, port, clusterOptions.durable === true);
    const start = async () => {
      const [command, args] = as.command(binaries.postgres, serverArgs);
      server = startProcess({
        name: 'PostgreSQL',
        command,
        args,
        cwd: dir,
        env: { PATH: process.env.PATH ?? '' },
        output: { file: log, append: true },
        exitWithParent: true,
      });
      await untilAccepting(server, url, log);
    };
    const pause = async (mode: 'fast' | 'immediate' = 'fast') => {
      await exec(binaries.pgCtl, ['stop', '-D', data, '-m', mode, '-w']);
      // pg_ctl returns once the server is gone; its guard follows at once.
      if (server && (await untilExited(server, GUARD_EXIT_MS)) === undefined)
        throw new Error(`PostgreSQL's guard (pid ${server.pid}) did not exit within ${GUARD_EXIT_MS} ms of the server`);
    };
    await start();
    return {
      url,
      pause,
      resume: start,
      async stop() {
        if (stopped) return;
        stopped = true;
        await pause('immediate').catch(() => undefined);
        cleanUp();
      },
      stopSync() {
        if (stopped) return;
        stopped = true;
        const [file, argv] = as.command(binaries.pgCtl, stopArgs);
        spawnSync(file, argv, { stdio: 'ignore', timeout: 30_000 });
        cleanUp();
      },
    };
  } catch (error) {
    const serverLog = existsSync(log) ? `\nserver log:\n${readFileSync(log, 'utf8').slice(-2000)}` : '';
    if (server) await exec(binaries.pgCtl, stopArgs).catch(() => undefined);
    cleanUp();
    throw new Error(
      `Could not start a PostgreSQL cluster for the tests: ${(error as Error).message}${serverLog}\n${HOW_TO_GET_POSTGRES}`,
    );
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env[ADMIN_URL_ENV] ?? process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      `No PostgreSQL for the tests: api/jest.config.js's globalSetup sets ${ADMIN_URL_ENV}. ${HOW_TO_GET_POSTGRES}`,
    );
  return url;
}

async function asAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  // Identifiers cannot be parameters; this one is built from hex digits only.
  const name = `api_test_${randomBytes(6).toString('hex')}`;
  await asAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      asAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
