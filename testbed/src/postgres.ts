/**
 * A real PostgreSQL server for the tests, never skipped: TEST_DATABASE_URL when set (a role that
 * may CREATE DATABASE), otherwise a throwaway cluster started from the local binaries, one per
 * jest run (globalSetup), listening on 127.0.0.1 on a free port. Each test file gets its own
 * database, dropped afterwards.
 *
 * PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` system user
 * (created by Debian's postgresql package) in a temporary folder it owns.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './free-port';

const run = promisify(execFile);

/** Set by globalSetup for the test files: a URL of a database where we may CREATE DATABASE. */
export const ADMIN_URL_ENV = 'API_TEST_POSTGRES_ADMIN_URL';

const HOW_TO_GET_POSTGRES =
  'The API tests need a real PostgreSQL server. Install the server binaries (Debian/Ubuntu: `apt-get install postgresql`), ' +
  'or point TEST_DATABASE_URL at a server where the role may CREATE DATABASE (e.g. postgres://postgres:postgres@localhost:5432/postgres).';

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** initdb and pg_ctl from PATH, else the newest /usr/lib/postgresql/<version>/bin. */
export function findPostgresBinaries(): PostgresBinaries {
  const initdb = onPath('initdb');
  const pgCtl = onPath('pg_ctl');
  if (initdb && pgCtl) return { initdb, pgCtl };
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')))
      return { initdb: join(bin, 'initdb'), pgCtl: join(bin, 'pg_ctl') };
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
  /** The `postgres` database of the cluster, as the superuser. */
  url: string;
  /**
   * Stops the server as an operator's restart does (`pg_ctl stop -m fast`), keeping its data;
   * `immediate` stops it as a crash would (no checkpoint: it recovers from its log at the next start).
   */
  pause(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts the paused server again on the same port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
  /** For a process exit handler: synchronous. */
  stopSync(): void;
}

export interface ClusterOptions {
  /**
   * As durable as a production server (fsync, synchronous commits, full pages): a commit the
   * server acknowledged survives an immediate stop. Off by default: a throwaway cluster's
   * durability costs seconds and buys nothing, unless a test stops it as a crash would and
   * counts what it acknowledged.
   */
  durable?: boolean;
  /**
   * A folder of its own for the data, log and socket (created; removed at stop), instead of a
   * temporary one: a run that keeps everything it starts in one place.
   */
  dir?: string;
  /** The port to listen on; a free one by default. */
  port?: number;
}

/**
 * Stops a cluster a killed run left running in `dir` (a `dir` of ClusterOptions), as a crash
 * would stop it; true when there was one. PostgreSQL runs detached, so nothing else stops it.
 */
export async function stopLeftCluster(dir: string): Promise<boolean> {
  const data = join(dir, 'data');
  if (!existsSync(join(data, 'postmaster.pid'))) return false;
  const [file, argv] = runAs().command(findPostgresBinaries().pgCtl, ['stop', '-D', data, '-m', 'immediate', '-w']);
  await run(file, argv, { timeout: 60_000 }).catch(() => undefined);
  return true;
}

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
  let started = false;
  let stopped = false;
  const stopArgs = ['stop', '-D', data, '-m', 'immediate', '-w'];
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  try {
    await exec(binaries.initdb, [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    const port = clusterOptions.port ?? (await freePort());
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c max_connections=200',
      // A throwaway cluster: durability buys nothing here and costs seconds.
      ...(clusterOptions.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    ].join(' ');
    const startArgs = ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', options];
    await exec(binaries.pgCtl, startArgs);
    started = true;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      pause: (mode = 'fast') => exec(binaries.pgCtl, ['stop', '-D', data, '-m', mode, '-w']),
      resume: () => exec(binaries.pgCtl, startArgs),
      async stop() {
        if (stopped) return;
        stopped = true;
        await exec(binaries.pgCtl, stopArgs).catch(() => undefined);
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
    if (started) await exec(binaries.pgCtl, stopArgs).catch(() => undefined);
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

/** A new, empty database on the test server. */
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
