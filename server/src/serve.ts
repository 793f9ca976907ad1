/**
 * Starts an HTTP server for one static part (the host or a remote): `/healthz` ahead of the
 * part's own handler, its metrics on a listener of their own (METRICS_PORT), and a graceful
 * shutdown on SIGTERM/SIGINT that first turns health to 503, (after SIGTERM, keeps serving for
 * SHUTDOWN_DELAY_MS so a load balancer notices), then stops accepting connections and lets
 * in-flight requests finish, within a bound; and, for a server that has one, a reload on SIGHUP.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import { answerHealth, isHealthUrl, type HealthOptions } from './health';
import type { LogLevel } from './env';
import { createLogger, type Logger, serverLog, setServerLog } from './log';
import {
  createMetricsRegistry,
  DEFAULT_METRICS_HOST,
  listenMetrics,
  METRICS_PATH,
  type MetricsEnv,
  type MetricsListener,
} from './metrics';
import { logRequests, maskUrl, requestIdOf } from './request-log';
import { countStaticRequests, createStaticHandler, type RequestHandler } from './static-server';
import { onReloadSignal } from './reload-signal';
import { onStopSignals } from './stop-signals';
import type { AllowedOrigin } from './origins';

/** Inside the grace the supervisors give before SIGKILL (`npm start`: 12 s). */
export const SHUTDOWN_TIMEOUT_MS = 3000;

export interface ServeOptions {
  /** The served build's `latest.json`; `/healthz` reports its id and is 503 without it. */
  buildFile: HealthOptions['buildFile'];
  /** More fields of a healthy `/healthz` answer (health.ts). */
  healthDetails?: HealthOptions['details'];
  /** The address to listen on; every interface when undefined. */
  listenHost?: string;
  /** After SIGTERM, how long requests are still served while health answers 503. */
  shutdownDelayMs?: number;
  /** How long requests in flight may take once the listener has closed. */
  shutdownTimeoutMs?: number;
  /**
   * The server's metrics, served from `registry` on a listener of their own at `metricsPort`
   * (none when undefined), never on the public port. It closes once the server has drained.
   */
  metrics?: MetricsEnv & { registry: Registry };
  /** True while `/healthz` must answer 503 "starting" (health.ts). */
  isStarting?: () => boolean;
  /** Run once the server has drained, before the process exits: stops what the server started (its workers). */
  onStopped?: () => Promise<void>;
  /** Where its lines go: the process's logger (`setServerLog`) unless a test gives one. */
  log?: Logger;
  /**
   * What SIGHUP (`systemctl reload`) does: re-read what the server reads from outside, serving
   * meanwhile (`reload-signal.ts`). Undefined: SIGHUP keeps Node's default, as nothing would be
   * re-read.
   */
  onReload?: () => Promise<void>;
  /** The visitor's address for the request log (the host's, behind TRUST_PROXY); by default the peer's. */
  clientAddress?: (req: IncomingMessage) => string | undefined;
}

export interface Serving {
  server: Server;
  /** The metrics listener, when `metrics` named a port. */
  metrics: MetricsListener | undefined;
  /**
   * Turns health to 503 at once; after `delayMs` (still serving meanwhile) stops accepting
   * connections, closes idle ones and lets in-flight requests finish (closing their connections
   * after the response). Resolves true once every connection is gone, or false after the
   * timeout, having dropped what was left. A later call with no delay ends a delay under way.
   */
  shutdown(delayMs?: number): Promise<boolean>;
}

/** Listens with the health route and the handler, without touching process signals. */
export async function listen(
  name: string,
  port: number,
  handler: RequestHandler,
  options: ServeOptions,
): Promise<Serving> {
  let stopping = false;
  // Set once the server listens; shutdown closes it after the drain.
  const opened: { metrics?: MetricsListener } = {};
  let metricsClosed: Promise<void> | undefined;
  /** The metrics listener lives as long as the server: it closes with it, however that is closed. */
  const closeMetrics = () => (metricsClosed ??= opened.metrics?.close() ?? Promise.resolve());
  let drained: Promise<boolean> | undefined;
  let endDelay = () => undefined as void;
  const health: HealthOptions = {
    buildFile: options.buildFile,
    isStopping: () => stopping,
    isStarting: options.isStarting,
    details: options.healthDetails,
  };
  // Long enough for any real URL; a longer one gets Node's 431 rather than our 404 page.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    // A kept-alive connection must not outlive the drain: close it once this response is sent.
    if (stopping) res.setHeader('Connection', 'close');
    res.once('finish', () => {
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
    // Health comes first, so no page route or file of a build can answer for it.
    // A handler that throws before returning its promise must not take the server down.
    Promise.resolve()
      .then(() => (isHealthUrl(req.url) ? answerHealth(req, res, health) : handler(req, res)))
      .catch((error: unknown) => failRequest(req, res, error, logOf(options)));
  });
  server.keepAliveTimeout = 5000;
  logRequests(server, () => logOf(options), {
    isQuiet: (req) => isHealthUrl(req.url),
    clientAddress: options.clientAddress,
  });
  const drain = () =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        server.closeAllConnections();
        resolve(false);
      }, options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS);
      server.close(() => {
        clearTimeout(timer);
        resolve(true);
      });
      server.closeIdleConnections();
    });
  const shutdown = (delayMs = 0): Promise<boolean> => {
    if (drained) {
      if (delayMs === 0) endDelay();
      return drained;
    }
    stopping = true;
    const delayed = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delayMs);
      endDelay = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    // Scrapes still see the drain; the metrics listener goes once it is over.
    drained = delayed.then(drain).then(async (complete) => {
      await closeMetrics();
      return complete;
    });
    return drained;
  };
  await listenOn(server, port, options);
  const metrics = await serveMetrics(server, name, options);
  opened.metrics = metrics;
  if (metrics) server.once('close', () => void closeMetrics());
  return { server, metrics, shutdown };
}

function listenOn(server: Server, port: number, options: ServeOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: options.listenHost }, () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      logOf(options).info(`listening on ${urlOf(options.listenHost ?? 'localhost', actualPort)}`);
      resolve();
    });
  });
}

/** The metrics listener `options` ask for, if any; failing that, `server` is closed and the start fails. */
async function serveMetrics(server: Server, name: string, options: ServeOptions): Promise<MetricsListener | undefined> {
  if (options.metrics?.metricsPort === undefined) return undefined;
  const { registry, metricsPort, metricsHost } = options.metrics;
  try {
    const metrics = await listenMetrics(registry, metricsPort, metricsHost);
    logOf(options).info(`metrics on ${urlOf(metricsHost, metrics.port)}${METRICS_PATH}`);
    return metrics;
  } catch (error) {
    // A server without the metrics it was told to serve would go unwatched: it does not start.
    await new Promise((resolve) => server.close(resolve));
    throw new Error(
      `[${name}] cannot serve metrics on ${metricsHost}:${metricsPort} (METRICS_PORT, METRICS_HOST): ${(error as Error).message}`,
    );
  }
}

/** A handler failed: logged with the request's id and masked path; a 500, or the connection dropped mid-answer. */
function failRequest(req: IncomingMessage, res: ServerResponse, error: unknown, log: Logger): void {
  log.error({ reqId: requestIdOf(req), url: maskUrl(req.url ?? '/'), err: error }, 'request failed');
  if (!res.headersSent) {
    res.statusCode = 500;
    res.end('Internal Server Error');
  } else {
    res.destroy();
  }
}

/** The server's logger: its own, or the process's. */
function logOf(options: Pick<ServeOptions, 'log'>): Logger {
  return options.log ?? serverLog();
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * `listen`, then exits 0 once drained after SIGTERM or SIGINT (1 if the drain timed out).
 * SIGTERM (an orchestrator) waits `shutdownDelayMs` before the drain; SIGINT (Ctrl-C) does not,
 * and ends a delay under way.
 */
export async function serve(
  name: string,
  port: number,
  handler: RequestHandler,
  options: ServeOptions,
): Promise<Server> {
  const { server, shutdown } = await listen(name, port, handler, options);
  onStopSignals({
    delayMs: options.shutdownDelayMs ?? 0,
    stop: (signal, delayMs) => {
      const log = logOf(options);
      log.info({ signal, delayMs }, `shutting down${delayMs > 0 ? `, health 503 for ${delayMs} ms first` : ''}`);
      void shutdown(delayMs).then(async (complete) => {
        if (!complete) log.error('requests still open after the shutdown timeout were dropped');
        await options.onStopped?.().catch((error: unknown) => {
          log.error({ err: error }, 'stopping failed');
        });
        process.exit(complete ? 0 : 1);
      });
    },
    // Ends a delay under way: the drain starts now.
    hurry: () => void shutdown(0),
  });
  if (options.onReload) onReloadSignal(name, options.onReload);
  return server;
}

export interface RemoteServeOptions extends Omit<ServeOptions, 'buildFile' | 'metrics'>, Partial<MetricsEnv> {
  /** LOG_LEVEL of the process's logger, named after the server (unless `log` is given). */
  logLevel?: LogLevel;
  /** The remote (`gifts`): its metrics' `part` label. */
  part: string;
  port: number;
  /** The folder to serve: the remote's build or a deploy target. */
  root: string;
  /** Allowed through CORS: the host's origin, or the development default's pattern (`readHostOrigin`). */
  hostOrigin: AllowedOrigin;
}

/**
 * Serves a remote's built folder with CORS for the host's origin; health from `builds/latest.json`.
 * With a metrics port, its answers are counted by status (health checks aside). The process's
 * log lines carry `name`.
 */
export function serveRemoteDist(
  name: string,
  {
    part,
    port,
    root,
    hostOrigin,
    metricsPort,
    metricsHost = DEFAULT_METRICS_HOST,
    logLevel,
    log = setServerLog(createLogger(name, logLevel)),
    ...options
  }: RemoteServeOptions,
): Promise<Server> {
  let handler = createStaticHandler({ root, corsOrigins: [hostOrigin] });
  let metrics: ServeOptions['metrics'];
  if (metricsPort !== undefined) {
    const registry = createMetricsRegistry(part);
    handler = countStaticRequests(handler, registry);
    metrics = { registry, metricsPort, metricsHost };
  }
  return serve(name, port, handler, { ...options, log, metrics, buildFile: join(root, 'builds', 'latest.json') });
}
