/** The start-up steps that make the storage ready: the data folder's lock, the connection, migrations and seed. */
import { CatalogueError, loadCatalogue } from './catalogue/catalogue';
import { seedPrizes } from './catalogue/seed';
import { type ServerConfig } from './config';
import { type DataDirLock, DataDirLockedError, lockDataDir } from './db/data-dir-lock';
import { type Database, DatabaseUnavailableError } from './db/database';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open-database';
import { IN_MEMORY } from './db/pglite-database';
import { waitForDatabase } from './db/wait-for-database';
import { prunePlays, PLAY_KEY_TTL_DAYS } from './features/game/play';
import { pruneRedeemSessions } from './features/redeems/prune-sessions';
import { pruneCounters } from './limits/rate-limit';
import { addDays } from './time';

export function fail(message: string): never {
  console.error(`[api] ${message}`);
  process.exit(1);
}

/** Where the data lives, without a password. */
export function describeStorage(config: ServerConfig): string {
  if (!config.databaseUrl) return `PGlite in ${config.pgliteDataDir}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/** Limit counters of finished windows, replayable play answers, unusable (never completed) redeem sessions. */
export async function pruneOldRows(db: Database): Promise<void> {
  await pruneCounters(db, addDays(new Date(), -2));
  await prunePlays(db, addDays(new Date(), -PLAY_KEY_TTL_DAYS));
  await pruneRedeemSessions(db, new Date());
}

/** One writer per PGlite folder; none to take for PostgreSQL or memory. Released on any exit. */
export async function lockStorage(config: ServerConfig): Promise<() => Promise<unknown>> {
  let lock: DataDirLock | undefined;
  if (!config.databaseUrl && config.pgliteDataDir !== IN_MEMORY) {
    try {
      lock = await lockDataDir(config.pgliteDataDir, {
        onWait: (owner) =>
          console.error(
            `[api] the PGlite data folder is locked by process ${owner.pid} on ${owner.hostname}: waiting to see whether it is still alive`,
          ),
        onLost: (error) => {
          console.error(`[api] lost the lock on the PGlite data folder, stopping: ${error.message}`);
          process.exit(1);
        },
      });
    } catch (error) {
      if (error instanceof DataDirLockedError) fail(error.message);
      fail(`cannot lock the PGlite data folder ${config.pgliteDataDir}: ${(error as Error).message}`);
    }
  }
  if (!lock) return async () => undefined;
  const held = lock;
  const releaseAtExit = () => held.releaseSync();
  process.once('exit', releaseAtExit);
  return async () => {
    process.off('exit', releaseAtExit);
    return held.release().catch(() => undefined);
  };
}

/** Opens the database; a PostgreSQL started beside the API may still be starting. */
export async function openStorage(
  config: ServerConfig,
  releaseLock: () => Promise<unknown>,
  onConnectionError: (error: Error) => void,
): Promise<Database> {
  let db: Database;
  try {
    db = await openDatabase(config, onConnectionError);
  } catch (error) {
    await releaseLock();
    fail(`cannot open the database (${describeStorage(config)}): ${(error as Error).message}`);
  }
  if (config.databaseUrl) await reachDatabase(db, config, releaseLock);
  return db;
}

/** One line per failed attempt, the URL without its password; exits 1 once DATABASE_CONNECT_RETRY_MS has passed. */
async function reachDatabase(db: Database, config: ServerConfig, releaseLock: () => unknown): Promise<void> {
  const storage = describeStorage(config);
  try {
    await waitForDatabase(db, {
      withinMs: config.databaseConnectRetryMs,
      onRetry: (attempt, reason, delayMs) =>
        console.error(
          `[api] cannot reach the database (${storage}), attempt ${attempt}: ${reason}; next in ${delayMs} ms`,
        ),
    });
  } catch (error) {
    await db.close().catch(() => undefined);
    await releaseLock();
    const reason = error instanceof DatabaseUnavailableError ? error.reason.message : (error as Error).message;
    fail(
      `cannot reach the database (${storage}) within ${config.databaseConnectRetryMs} ms (DATABASE_CONNECT_RETRY_MS): ${reason}`,
    );
  }
}

/** Migrations, the prize catalogue on first start, and a first pruning. */
export async function prepareStorage(
  db: Database,
  config: ServerConfig,
  log: (fields: object) => void,
  releaseLock: () => Promise<unknown>,
): Promise<void> {
  try {
    const applied = await migrate(db);
    const seeded = await seedPrizes(db, () => loadCatalogue(config.catalogueFile), new Date());
    log({ storage: describeStorage(config), migrationsApplied: applied, prizesSeeded: seeded });
    await pruneOldRows(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    await releaseLock();
    if (error instanceof CatalogueError) fail(error.message);
    fail(`cannot prepare the database (${describeStorage(config)}): ${(error as Error).message}`);
  }
}
