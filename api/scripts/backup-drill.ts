/**
 * The restore drill of docs/operations.md: on a scratch database of a PostgreSQL server, an API
 * process gets gifts won, vouchers issued and a redeem session opened through its HTTP API; the
 * guide's pg_dump backs the database up, the database is dropped, the guide's pg_restore brings
 * it back, and a new API process must answer every gift, redeem session, voucher and visitor's
 * list exactly as it did before the backup. It proves the procedure and the client tools on that server.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Client } from 'pg';
import { freePort } from 'testbed/free-port';
import { startServer, stopProcess } from 'testbed/process';
import { apiProcessSpec } from './api-process';
import { type BackupVariables, majorOfVersion, runBackupCommand } from './backup-commands';
import { type Visit, type Visitor, playAndRedeem, readEverything } from './drill-visitors';

// A cold tsx start on a busy two-core machine, then migrations and the catalogue's seeding.
const READY_TIMEOUT_MS = 90_000;

export interface DrillReport {
  postgresMajor: number;
  gifts: number;
  vouchers: number;
  openSessions: number;
  /** Answers compared before and after, one per gift, redeem session and visitor's list. */
  answers: number;
  dumpBytes: number;
  dumpMs: number;
  restoreMs: number;
}

export interface DrillOptions {
  /** A role that may CREATE and DROP DATABASE, on the `postgres` (or any other) database. */
  adminUrl: string;
  log?: (line: string) => void;
}

async function asAdmin<T>(adminUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An API process on the database, as deployed (one secret for both starts: visitors stay who they were). */
async function startApi(databaseUrl: string, cookieSecret: string) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = await startServer({
    ...apiProcessSpec(port, { DATABASE_URL: databaseUrl, GAME_WIN_RATE: '1', VISITOR_COOKIE_SECRETS: cookieSecret }),
    output: 'pipe',
    health: `${baseUrl}/api/health/ready`,
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  return { baseUrl, stop: () => stopProcess(started) };
}

/** Checks the client tools are the server's major version: pg_dump refuses a newer server. */
async function checkVersions(variables: BackupVariables): Promise<number> {
  const client = majorOfVersion(await runBackupCommand('dumpVersion', variables));
  const server = await asAdmin(variables.DATABASE_URL, async (db) => {
    const { rows } = await db.query<{ server_version_num: string }>('SHOW server_version_num');
    return Math.floor(Number(rows[0]?.server_version_num) / 10_000);
  });
  if (client !== server)
    throw new Error(
      `pg_dump is PostgreSQL ${client}'s, the server runs ${server}: use the server's major version's client tools`,
    );
  return server;
}

/** The answers that differ after the restore, by what was asked. */
function differences(before: Visit, after: Visit): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => !isDeepStrictEqual(before[key], after[key]));
}

/** Backs the database up, drops it and restores it with the guide's commands; returns the times. */
async function dumpDropRestore(variables: BackupVariables): Promise<{ dumpMs: number; restoreMs: number }> {
  let started = Date.now();
  await runBackupCommand('dump', variables);
  await runBackupCommand('list', variables);
  const dumpMs = Date.now() - started;
  await runBackupCommand('drop', variables);
  const left = await asAdmin(variables.ADMIN_DATABASE_URL, (db) =>
    db.query('SELECT 1 FROM pg_database WHERE datname = $1', [variables.DATABASE_NAME]),
  );
  if (left.rowCount !== 0) throw new Error(`${variables.DATABASE_NAME} is still there after dropdb`);
  started = Date.now();
  await runBackupCommand('restore', variables);
  return { dumpMs, restoreMs: Date.now() - started };
}

async function drill(variables: BackupVariables, log: (line: string) => void): Promise<DrillReport> {
  const postgresMajor = await checkVersions(variables);
  const cookieSecret = randomBytes(32).toString('base64');
  let api = await startApi(variables.DATABASE_URL, cookieSecret);
  let visitors: Visitor[];
  let before: Visit;
  try {
    visitors = await playAndRedeem(api.baseUrl);
    before = await readEverything(api.baseUrl, visitors);
  } finally {
    await api.stop();
  }
  const { dumpMs, restoreMs } = await dumpDropRestore(variables);
  const dumpBytes = statSync(variables.BACKUP_FILE).size;
  log(`dumped ${dumpBytes} bytes in ${dumpMs} ms, dropped the database, restored it in ${restoreMs} ms`);
  api = await startApi(variables.DATABASE_URL, cookieSecret);
  try {
    const after = await readEverything(api.baseUrl, visitors);
    const changed = differences(before, after);
    if (changed.length > 0) throw new Error(`After the restore these answers differ: ${changed.join(', ')}`);
  } finally {
    await api.stop();
  }
  return {
    postgresMajor,
    gifts: visitors.reduce((sum, visitor) => sum + visitor.giftIds.length, 0),
    vouchers: visitors.reduce((sum, visitor) => sum + visitor.completed.length, 0),
    openSessions: visitors.reduce((sum, visitor) => sum + visitor.open.length, 0),
    answers: Object.keys(before).length,
    dumpBytes,
    dumpMs,
    restoreMs,
  };
}

/** Runs the drill on a scratch database of the admin URL's server, removed afterwards. */
export async function runBackupDrill({ adminUrl, log = () => undefined }: DrillOptions): Promise<DrillReport> {
  const name = `gift_box_drill_${randomBytes(6).toString('hex')}`;
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${name}`;
  const folder = mkdtempSync(join(tmpdir(), 'gift-box-backup-drill-'));
  const variables: BackupVariables = {
    BACKUP_FILE: join(folder, `${name}.dump`),
    DATABASE_URL: databaseUrl.toString(),
    DATABASE_NAME: name,
    ADMIN_DATABASE_URL: adminUrl,
  };
  // The name is made of hex digits: safe as an identifier.
  await asAdmin(adminUrl, (db) => db.query(`CREATE DATABASE "${name}"`));
  log(`scratch database ${name}`);
  try {
    return await drill(variables, log);
  } finally {
    await asAdmin(adminUrl, (db) => db.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    rmSync(folder, { recursive: true, force: true });
  }
}
