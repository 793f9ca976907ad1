/** The Fastify app of a part (the host or a remote): decision 50 lists what every part shares. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { isHealthUrl, registerHealth, type HealthOptions } from './health';
import { type Logger, serverLog } from './log';
import { listenMetrics, METRICS_PATH, type MetricsEnv, type MetricsListener } from './metrics';
import { logRequests, maskUrl, requestIdOf } from './request-log';
import { onReloadSignal } from './reload-signal';
import { stopOnSignals } from './graceful-stop';
import { sendText } from './text-reply';

/** Inside the grace the supervisors give before SIGKILL (`npm start`: 12 s). */
export const SHUTDOWN_TIMEOUT_MS = 3000;
/** Long enough for any real URL; a longer one gets Node's 431 rather than a page. */
const MAX_HEADER_BYTES = 64 * 1024;

export type BadUrlHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** Adds a part's routes; `onBadUrl` answers a path the router cannot decode (by default a plain 400). */
export type PartRoutes = (app: FastifyInstance, onBadUrl: (handler: BadUrlHandler) => void) => void | Promise<void>;

export interface PartServerOptions {
  buildFile: HealthOptions['buildFile'];
  healthDetails?: HealthOptions['details'];
  /** Undefined: every interface. */
  listenHost?: string;
  shutdownDelayMs?: number;
  shutdownTimeoutMs?: number;
  /** Served on a listener of their own, never on the public port. */
  metrics?: MetricsEnv & { registry: Registry };
  isStarting?: () => boolean;
  /** Once drained, before the exit: stops what the server started (its workers). */
  onStopped?: () => Promise<void>;
  /** By default the process's logger (`setServerLog`). */
  log?: Logger;
  /** What SIGHUP re-reads, serving meanwhile; undefined: SIGHUP keeps Node's default. */
  onReload?: () => Promise<void>;
  /** The visitor's address for the request log (behind TRUST_PROXY); by default the peer's. */
  clientAddress?: (req: IncomingMessage) => string | undefined;
}

export interface PartServer {
  app: FastifyInstance;
  server: Server;
  metrics: MetricsListener | undefined;
  /**
   * Health 503 at once; after `delayMs`, the drain. True once every connection is gone, false
   * after the timeout, having dropped what was left. A call with no delay ends a delay under way.
   */
  shutdown(delayMs?: number): Promise<boolean>;
}

function logOf(options: Pick<PartServerOptions, 'log'>): Logger {
  return options.log ?? serverLog();
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The app with what every part shares; `isStopping` is read by health and each response. */
async function createPartApp(routes: PartRoutes, options: PartServerOptions, isStopping: () => boolean) {
  let badUrl: BadUrlHandler = (_request, reply) => sendText(reply, 400, 'Bad request path');
  const app = Fastify({
    serverFactory: (handler) => createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler),
    keepAliveTimeout: 5000,
    // Requests on a kept-alive connection during the drain get the part's own answers (health's 503).
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_HEADER_BYTES },
    // One request log line each, written by request-log.ts.
    logger: false,
    frameworkErrors: (_error, request, reply) => void badUrl(request, reply),
  });
  logRequests(app.server, () => logOf(options), {
    isQuiet: (req) => isHealthUrl(req.url),
    clientAddress: options.clientAddress,
  });
  app.addHook('onRequest', async (_request, reply) => {
    // A kept-alive connection must not outlive the drain: closed once this response is sent.
    if (!isStopping()) return;
    reply.header('Connection', 'close');
    reply.raw.once('finish', () => setImmediate(() => app.server.closeIdleConnections()));
  });
  app.setErrorHandler((error, request, reply) => {
    logOf(options).error({ reqId: requestIdOf(request.raw), url: maskUrl(request.url), err: error }, 'request failed');
    if (reply.sent || reply.raw.headersSent) reply.raw.destroy();
    else void reply.code(500).type('text/plain; charset=utf-8').send('Internal Server Error');
  });
  // Health comes first, so no page route or file of a build can answer for it.
  registerHealth(app, {
    buildFile: options.buildFile,
    isStopping,
    isStarting: options.isStarting,
    details: options.healthDetails,
  });
  app.setNotFoundHandler((_request, reply) => sendText(reply, 404, 'Not found'));
  await app.register(async (scope) => routes(scope, (handler) => (badUrl = handler)));
  return app;
}

/** Listens with the health route and the part's routes, without touching process signals. */
export async function listenPart(
  name: string,
  port: number,
  routes: PartRoutes,
  options: PartServerOptions,
): Promise<PartServer> {
  let stopping = false;
  const app = await createPartApp(routes, options, () => stopping);
  const server = app.server;
  // Set once the server listens; shutdown closes it after the drain.
  const opened: { metrics?: MetricsListener } = {};
  let metricsClosed: Promise<void> | undefined;
  const closeMetrics = () => (metricsClosed ??= opened.metrics?.close() ?? Promise.resolve());
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
  let drained: Promise<boolean> | undefined;
  let endDelay = () => undefined as void;
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
  await app.ready();
  await listenOn(server, port, options);
  const metrics = await serveMetrics(app, name, options);
  opened.metrics = metrics;
  if (metrics) server.once('close', () => void closeMetrics());
  return { app, server, metrics, shutdown };
}

function listenOn(server: Server, port: number, options: PartServerOptions): Promise<void> {
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

/** The metrics listener `options` ask for, if any; failing that, the app is closed and the start fails. */
async function serveMetrics(
  app: FastifyInstance,
  name: string,
  options: PartServerOptions,
): Promise<MetricsListener | undefined> {
  if (options.metrics?.metricsPort === undefined) return undefined;
  const { registry, metricsPort, metricsHost } = options.metrics;
  try {
    const metrics = await listenMetrics(registry, metricsPort, metricsHost);
    logOf(options).info(`metrics on ${urlOf(metricsHost, metrics.port)}${METRICS_PATH}`);
    return metrics;
  } catch (error) {
    // A server without the metrics it was told to serve would go unwatched: it does not start.
    await new Promise((resolve) => app.server.close(resolve));
    throw new Error(
      `[${name}] cannot serve metrics on ${metricsHost}:${metricsPort} (METRICS_PORT, METRICS_HOST): ${(error as Error).message}`,
    );
  }
}

/**
 * `listenPart`, then exits 0 once drained after SIGTERM or SIGINT (1 if the drain timed out).
 * SIGTERM (an orchestrator) waits `shutdownDelayMs` before the drain; SIGINT (Ctrl-C) does not,
 * and ends a delay under way.
 */
export async function servePart(
  name: string,
  port: number,
  routes: PartRoutes,
  options: PartServerOptions,
): Promise<PartServer> {
  const part = await listenPart(name, port, routes, options);
  const log = logOf(options);
  const stopListening = stopOnSignals({
    delayMs: options.shutdownDelayMs ?? 0,
    log,
    stop: (delayMs) => part.shutdown(delayMs),
    // Ends a delay under way: the drain starts now.
    hurry: () => void part.shutdown(0),
    afterStop: options.onStopped,
  });
  const stopReloading = options.onReload ? onReloadSignal(name, options.onReload) : undefined;
  // A part stopped by its caller (a test, an embedding process) leaves no listener on the process.
  const forget = () => {
    stopListening();
    stopReloading?.();
  };
  const shutdown = (delayMs?: number) => {
    const drained = part.shutdown(delayMs);
    drained.then(forget, forget);
    return drained;
  };
  return { ...part, shutdown };
}
