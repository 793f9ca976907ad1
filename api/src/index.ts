/**
 * Starts the API: reads the configuration, serves its metrics on METRICS_PORT (when set), takes
 * the PGlite data folder's lock (one writer per folder), opens the database (waiting up to
 * DATABASE_CONNECT_RETRY_MS for a PostgreSQL that is still starting), applies migrations,
 * seeds the prize catalogue on first start, listens on API_PORT, and shuts down gracefully
 * on SIGTERM/SIGINT: readiness turns "not ready" first (for SHUTDOWN_DELAY_MS after SIGTERM
 * requests are still served, while load balancers notice), then in-flight requests finish, then
 * the metrics listener and the database close and the lock is released.
 */
import { EnvError } from 'server/env';
import { createMetricsRegistry, listenMetrics, type MetricsListener } from 'server/metrics';
import { type Logger, setServerLog } from 'server/log';
import { stopOnSignals } from 'server/graceful-stop';
import { CatalogueError, loadCatalogue } from './catalogue/catalogue';
import { seedPrizes } from './catalogue/seed';
import { readServerConfig, type ServerConfig } from './config';
import { type Lifecycle } from './app-context';
import { type DataDirLock, DataDirLockedError, lockDataDir } from './db/data-dir-lock';
import { type Database, DatabaseUnavailableError } from './db/database';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open-database';
import { IN_MEMORY } from './db/pglite-database';
import { waitForDatabase } from './db/wait-for-database';
import { prunePlays, PLAY_KEY_TTL_DAYS } from './features/game/play';
import { pruneRedeemSessions } from './features/redeems/prune-sessions';
import { pruneCounters } from './limits/rate-limit';
import { buildApp } from './server';
import { addDays } from './time';

const SHUTDOWN_TIMEOUT_MS = 10_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Limit counters of finished windows, play answers past the time a key can be repeated, and
 * redeem sessions nobody can use any more (never a completed one).
 */
async function pruneOldRows(db: Database): Promise<void> {
  await pruneCounters(db, addDays(new Date(), -2));
  await prunePlays(db, addDays(new Date(), -PLAY_KEY_TTL_DAYS));
  await pruneRedeemSessions(db, new Date());
}

function fail(message: string): never {
  console.error(`[api] ${message}`);
  process.exit(1);
}

/** Where the data lives, without a password. */
function describeStorage(config: ServerConfig): string {
  if (!config.databaseUrl) return `PGlite in ${config.pgliteDataDir}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/**
 * Waits for PostgreSQL (started beside the API, it may still be starting), one line per failed
 * attempt, the URL without its password; exits 1 naming the cause once DATABASE_CONNECT_RETRY_MS
 * has passed.
 */
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

async function listen(app: Awaited<ReturnType<typeof buildApp>>, config: ServerConfig): Promise<void> {
  if (config.listenHost) {
    await app.listen({ port: config.port, host: config.listenHost });
    return;
  }
  // Every interface, like the other servers: IPv6 (dual stack) where the machine has it.
  try {
    await app.listen({ port: config.port, host: '::' });
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code !== 'EAFNOSUPPORT' &&
      (error as NodeJS.ErrnoException).code !== 'EADDRNOTAVAIL'
    )
      throw error;
    await app.listen({ port: config.port, host: '0.0.0.0' });
  }
}

async function main(): Promise<void> {
  let config: ServerConfig;
  try {
    config = readServerConfig();
  } catch (error) {
    if (error instanceof EnvError) fail(`invalid configuration:\n${error.message}`);
    throw error;
  }

  // The metrics port first: one that is taken is a configuration error, refused at once, before
  // the data folder is locked or the database opened, migrated or seeded (which takes seconds).
  const metrics = createMetricsRegistry('api');
  let metricsListener: MetricsListener | undefined;
  const { metricsPort, metricsHost } = config.metrics;
  if (metricsPort !== undefined) {
    try {
      metricsListener = await listenMetrics(metrics, metricsPort, metricsHost);
    } catch (error) {
      fail(
        `cannot serve metrics on ${metricsHost}:${metricsPort} (METRICS_PORT, METRICS_HOST): ${(error as Error).message}`,
      );
    }
  }

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
  const releaseLock = () => lock?.release().catch(() => undefined);
  // Also on a forced exit (a second Ctrl-C, a shutdown that took too long).
  process.once('exit', () => lock?.releaseSync());

  // Lost connections are logged once the app's logger exists; requests that met them answer 503.
  let logConnectionError = (error: Error) => console.error(`[api] database connection lost: ${error.message}`);
  let db: Database;
  try {
    db = await openDatabase(config, (error) => logConnectionError(error));
  } catch (error) {
    await releaseLock();
    fail(`cannot open the database (${describeStorage(config)}): ${(error as Error).message}`);
  }
  if (config.databaseUrl) await reachDatabase(db, config, releaseLock);
  const lifecycle: Lifecycle = { stopping: false };
  const app = await buildApp({ config, db, lifecycle, metrics });
  // What server/ code logs in this process (the shared metrics listener) goes to the API's log.
  setServerLog(app.log as Logger);
  logConnectionError = (error) => app.log.warn({ reason: error.message }, 'database connection lost');

  try {
    const applied = await migrate(db);
    const seeded = await seedPrizes(db, () => loadCatalogue(config.catalogueFile), new Date());
    app.log.info(
      { storage: describeStorage(config), migrationsApplied: applied, prizesSeeded: seeded },
      'database ready',
    );
    await pruneOldRows(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    await releaseLock();
    if (error instanceof CatalogueError) fail(error.message);
    fail(`cannot prepare the database (${describeStorage(config)}): ${(error as Error).message}`);
  }

  if (metricsListener) app.log.info({ port: metricsListener.port, host: metricsHost }, 'metrics served at /metrics');

  const pruning = setInterval(() => {
    pruneOldRows(db).catch((error: unknown) => app.log.warn({ err: error }, 'pruning old rows failed'));
  }, PRUNE_EVERY_MS);
  pruning.unref();

  stopOnSignals({
    // Ctrl-C in a terminal stops at once; an orchestrator's SIGTERM gives balancers time to notice.
    delayMs: config.shutdownDelayMs,
    log: app.log as Logger,
    message: 'shutting down: not ready any more, then finishing in-flight requests',
    stop: async (delay) => {
      lifecycle.stopping = true;
      clearInterval(pruning);
      setTimeout(() => {
        app.log.error('shutdown took too long: exiting');
        process.exit(1);
      }, delay + SHUTDOWN_TIMEOUT_MS).unref();
      await new Promise((resolve) => setTimeout(resolve, delay));
      await app.close();
      await metricsListener?.close();
      await db.close();
      await releaseLock();
      return true;
    },
    hurry: (signal) => {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    },
  });

  try {
    await listen(app, config);
  } catch (error) {
    await metricsListener?.close();
    await db.close().catch(() => undefined);
    await releaseLock();
    fail(`cannot listen on port ${config.port} (API_PORT): ${(error as Error).message}`);
  }
}

main().catch((error: unknown) => {
  console.error('[api] start-up failed', error);
  process.exit(1);
});
