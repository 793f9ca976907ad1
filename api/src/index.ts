/**
 * Starts the API: metrics listener, storage lock, database, migrations and seed, then listens.
 * SIGTERM turns readiness "not ready" for SHUTDOWN_DELAY_MS before in-flight requests finish.
 */
import { EnvError } from 'server/env';
import { createMetricsRegistry, listenMetrics, type MetricsListener } from 'server/metrics';
import { type Logger, setServerLog } from 'server/log';
import { stopOnSignals } from 'server/graceful-stop';
import { type Registry } from 'prom-client';
import { type App, type Lifecycle } from './app-context';
import { readServerConfig, type ServerConfig } from './config';
import { type Database } from './db/database';
import { buildApp } from './server';
import { fail, lockStorage, openStorage, prepareStorage, pruneOldRows } from './start-storage';

const SHUTDOWN_TIMEOUT_MS = 10_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

function readConfig(): ServerConfig {
  try {
    return readServerConfig();
  } catch (error) {
    if (error instanceof EnvError) fail(`invalid configuration:\n${error.message}`);
    throw error;
  }
}

/** A taken metrics port is refused before the slow steps (lock, open, migrate, seed). */
async function serveMetrics(config: ServerConfig, metrics: Registry): Promise<MetricsListener | undefined> {
  const { metricsPort, metricsHost } = config.metrics;
  if (metricsPort === undefined) return undefined;
  try {
    return await listenMetrics(metrics, metricsPort, metricsHost);
  } catch (error) {
    fail(
      `cannot serve metrics on ${metricsHost}:${metricsPort} (METRICS_PORT, METRICS_HOST): ${(error as Error).message}`,
    );
  }
}

async function listen(app: App, config: ServerConfig): Promise<void> {
  if (config.listenHost) {
    await app.listen({ port: config.port, host: config.listenHost });
    return;
  }
  // Every interface, like the other servers: IPv6 (dual stack) where the machine has it.
  try {
    await app.listen({ port: config.port, host: '::' });
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL') throw error;
    await app.listen({ port: config.port, host: '0.0.0.0' });
  }
}

interface Running {
  app: App;
  db: Database;
  lifecycle: Lifecycle;
  config: ServerConfig;
  metricsListener: MetricsListener | undefined;
  releaseLock: () => Promise<unknown>;
}

function schedulePruning({ app, db }: Running): NodeJS.Timeout {
  const pruning = setInterval(() => {
    pruneOldRows(db).catch((error: unknown) => app.log.warn({ err: error }, 'pruning old rows failed'));
  }, PRUNE_EVERY_MS);
  return pruning.unref();
}

function stopGracefully(running: Running, pruning: NodeJS.Timeout): void {
  const { app, db, lifecycle, config, metricsListener, releaseLock } = running;
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
}

async function start(): Promise<Running> {
  const config = readConfig();
  const metrics = createMetricsRegistry('api');
  const metricsListener = await serveMetrics(config, metrics);
  const releaseLock = await lockStorage(config);
  // Until the app's logger exists; requests that meet a lost connection answer 503.
  let logConnectionError = (error: Error) => console.error(`[api] database connection lost: ${error.message}`);
  const db = await openStorage(config, releaseLock, (error) => logConnectionError(error));
  const lifecycle: Lifecycle = { stopping: false };
  const app = await buildApp({ config, db, lifecycle, metrics });
  // The shared metrics listener logs through server/log: into the API's log.
  setServerLog(app.log as Logger);
  logConnectionError = (error) => app.log.warn({ reason: error.message }, 'database connection lost');
  await prepareStorage(db, config, (fields) => app.log.info(fields, 'database ready'), releaseLock);
  if (metricsListener) {
    app.log.info({ port: metricsListener.port, host: config.metrics.metricsHost }, 'metrics served at /metrics');
  }
  return { app, db, lifecycle, config, metricsListener, releaseLock };
}

async function main(): Promise<void> {
  const running = await start();
  stopGracefully(running, schedulePruning(running));
  const { app, db, config, metricsListener, releaseLock } = running;
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
