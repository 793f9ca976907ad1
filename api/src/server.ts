/**
 * Builds the API application without listening (tests call `inject`; `index.ts` listens).
 * Configuration, database, clock and the metrics registry are injected.
 */
import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import pino from 'pino';
import { Registry } from 'prom-client';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type App, type AppContext, type Lifecycle } from './app-context';
import { type AppConfig } from './config';
import { type Database } from './db/database';
import { registerPlay } from './features/game/play-route';
import { registerGetGift } from './features/gifts/get-gift';
import { GiftCache } from './features/gifts/gift-cache';
import { registerOpenRedeem } from './features/gifts/open-redeem';
import { registerHealth } from './features/health/health-route';
import { registerCompleteRedeem } from './features/redeems/complete-redeem';
import { registerGetRedeem } from './features/redeems/get-redeem';
import { BuildRegistry } from './features/telemetry/build-registry';
import { KnownRoutes } from './features/telemetry/known-routes';
import { RouteLearner } from './features/telemetry/route-learner';
import { registerTelemetry } from './features/telemetry/telemetry-route';
import { registerVisitorGifts } from './features/visitor/visitor-gifts';
import { setHashKey } from './hash';
import { installCors } from './http/cors';
import { batchedDestination } from 'server/log-destination';
import { answerClientError, frameworkErrorHandler, installErrorHandlers } from './http/error-handler';
import { HttpError } from './http/errors';
import { installProxyWarning } from './http/proxy-warning';
import { installAccessLog, serializeRequest } from './http/request-log';
import { responseSerializerCompiler } from './http/response-serializer';
import { installSameSiteGuard } from './http/same-site-guard';
import { createApiMetrics } from './metrics/api-metrics';
import { instrumentDatabase } from './metrics/database-metrics';
import { installHttpMetrics } from './metrics/http-metrics';
import { type Clock, systemClock } from './time';

/** Request bodies are tiny (`{ email, acceptTerms }` at most). */
export const BODY_LIMIT_BYTES = 4 * 1024;

/**
 * Every request is bounded: its headers and its whole body must arrive within these, or Node
 * answers 408 and closes the connection (checked every CHECK_INTERVAL). An idle kept-alive
 * connection stays open longer than a load balancer's usual idle timeout (60 s for nginx's
 * upstream keepalive and cloud load balancers), so the balancer, not us, closes it: otherwise
 * it could send a request just as we close, and the visitor gets a 502.
 */
export const TIMEOUTS = {
  headersMs: 10_000,
  requestMs: 10_000,
  keepAliveMs: 75_000,
  checkIntervalMs: 1_000,
} as const;

export interface BuildAppOptions {
  config: AppConfig;
  db: Database;
  /** The time every handler uses, and passes to SQL; tests move it. */
  now?: Clock;
  /** Where the JSON log lines go (default stdout); tests read them. */
  logStream?: NodeJS.WritableStream;
  /** Shared with whoever stops the process, which sets `stopping` before it drains. */
  lifecycle?: Lifecycle;
  /**
   * Where the API's series go: `index.ts` gives the process's registry (with the process's own
   * metrics) and serves it on METRICS_PORT. Omitted, a registry of the app's own, without them.
   */
  metrics?: Registry;
}

// Nothing personal or secret reaches the logs: cookies, emails and voucher codes are censored;
// requests are logged with their ids masked and the address hashed (serializeRequest).
const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'email',
  'voucherCode',
  '*.email',
  '*.voucherCode',
  '*.voucher_code',
];

export async function buildApp({
  config,
  db: database,
  now = systemClock,
  logStream,
  lifecycle = { stopping: false },
  metrics: registry = new Registry(),
}: BuildAppOptions): Promise<App> {
  // Both loggers write to one destination (stdout unless a test gives a stream), so their lines
  // stay in order. On stdout: asynchronous, handed over in batches (log-destination.ts), flushed on exit.
  // `name` says which server wrote a line, as on every server of ours (server/log).
  const destination = logStream ?? batchedDestination(pino.destination({ dest: 1, sync: false }));
  const logger: FastifyBaseLogger = pino(
    {
      name: 'api',
      level: config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: { req: serializeRequest },
    },
    destination,
  );
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestTimeout: TIMEOUTS.requestMs,
    keepAliveTimeout: TIMEOUTS.keepAliveMs,
    http: { headersTimeout: TIMEOUTS.headersMs, connectionsCheckingInterval: TIMEOUTS.checkIntervalMs },
    // One line per request, written when it is answered (installAccessLog), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Fastify's own 503 while closing has another body and no CORS headers: the hook below
    // answers instead, in the one error shape.
    return503OnClosing: false,
    // What Fastify and Node refuse before any route runs, in the one error shape too.
    frameworkErrors: frameworkErrorHandler(BODY_LIMIT_BYTES),
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  // JSON only: a text/plain POST is what a cross-site form can send without a CORS preflight.
  app.removeContentTypeParser('text/plain');
  // The contract's schemas are zod/mini, which installs no messages: a 400 says what failed in English.
  z.config(z.locales.en());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  installErrorHandlers(app, BODY_LIMIT_BYTES);

  installCors(app, [config.hostOrigin, ...config.corsOrigins]);
  // Only its parser and serializer (`http/visitor.ts`), without its hooks on every request.
  await app.register(cookie, { hook: false });
  app.decorate('visitorCookie', config.visitorCookie);
  setHashKey(config.addressHashKey);
  installSameSiteGuard(app, [config.hostOrigin, ...config.corsOrigins]);
  installProxyWarning(app, config.trustProxy);

  // While shutting down, a request that arrives on a kept-alive connection that already carried
  // one is refused through the error handler: the one error body, with CORS headers (set by the
  // CORS hook before this one), and the connection closed after the answer. A connection's first
  // request is served, then its connection closed: the listener accepted the connection before it
  // closed, and a balancer that opens one connection per request (nginx, to the API) has sent it
  // there already and cannot send a POST elsewhere, so a 503 would reach the visitor.
  let closing = false;
  const served = new WeakSet<object>();
  app.addHook('preClose', async () => {
    closing = true;
    lifecycle.stopping = true;
  });
  app.addHook('onRequest', (request, reply, done) => {
    const connection = request.raw.socket;
    const first = !served.has(connection);
    if (first) served.add(connection);
    if (!closing) return done();
    void reply.header('connection', 'close');
    if (first) return done();
    done(new HttpError(503, 'The service is shutting down. Try again in a moment.'));
  });

  installAccessLog(app, pino({ name: 'api', level: config.logLevel }, destination));
  const metrics = createApiMetrics(registry);
  installHttpMetrics(app, metrics);
  const db = instrumentDatabase(database, metrics);

  // Answers carry ids and voucher codes: no shared or browser cache may keep them.
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('cache-control', 'no-store');
    void reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });

  const gifts = new GiftCache(db);
  await gifts.start();
  app.addHook('onClose', async () => gifts.stop());
  // The builds, then the routes their manifests publish, are read once before the app is ready
  // (each part bounded by a timeout), then polled.
  const routes = new KnownRoutes(Object.keys(config.builds.manifests));
  const learner: RouteLearner = new RouteLearner({
    ...config.builds,
    routes,
    canaryOf: (remote): string | undefined => builds.canaries().find(({ part }) => part === remote)?.id,
    log: app.log,
  });
  const builds: BuildRegistry = new BuildRegistry({
    ...config.builds,
    log: app.log,
    afterReadAll: () => learner.refresh(),
  });
  app.addHook('onReady', async () => builds.start());
  app.addHook('onClose', async () => builds.stop());
  const context: AppContext = { config, db, now, lifecycle, gifts, metrics, builds, routes };
  for (const register of [
    registerHealth,
    registerPlay,
    registerVisitorGifts,
    registerGetGift,
    registerOpenRedeem,
    registerGetRedeem,
    registerCompleteRedeem,
    registerTelemetry,
  ]) {
    register(app, context);
  }
  return app;
}
