/** Builds the API application without listening (tests call `inject`; `index.ts` listens). */
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
import { registerTelemetry } from './features/telemetry/telemetry-route';
import { installTelemetrySources } from './features/telemetry/telemetry-sources';
import { registerVisitorGifts } from './features/visitor/visitor-gifts';
import { setHashKey } from './hash';
import { installCors } from './http/cors';
import { stdoutDestination } from 'server/log';
import { answerClientError, frameworkErrorHandler, installErrorHandlers } from './http/error-handler';
import { installProxyWarning } from './http/proxy-warning';
import { installAccessLog, serializeRequest } from './http/request-log';
import { responseSerializerCompiler } from './http/response-serializer';
import { installSameSiteGuard } from './http/same-site-guard';
import { installShutdownGuard } from './http/shutdown-guard';
import { createApiMetrics } from './metrics/api-metrics';
import { instrumentDatabase } from './metrics/database-metrics';
import { installHttpMetrics } from './metrics/http-metrics';
import { type Clock, systemClock } from './time';

export const BODY_LIMIT_BYTES = 4 * 1024;

/** Kept-alive outlives a balancer's 60 s idle timeout: the balancer closes, never us mid-send (a 502). */
export const TIMEOUTS = {
  headersMs: 10_000,
  requestMs: 10_000,
  keepAliveMs: 75_000,
  checkIntervalMs: 1_000,
} as const;

export interface BuildAppOptions {
  config: AppConfig;
  db: Database;
  now?: Clock;
  logStream?: NodeJS.WritableStream;
  lifecycle?: Lifecycle;
  metrics?: Registry;
}

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
  // One destination for both loggers keeps their lines in order; stdout is written in batches.
  const destination = logStream ?? stdoutDestination();
  const app = createFastify(config, destination);
  await installHttpLayer(app, config, lifecycle);
  installAccessLog(app, pino({ name: 'api', level: config.logLevel }, destination));
  const metrics = createApiMetrics(registry);
  installHttpMetrics(app, metrics);
  const db = instrumentDatabase(database, metrics);
  installNoStore(app);

  const gifts = new GiftCache(db);
  await gifts.start();
  app.addHook('onClose', async () => gifts.stop());
  const { builds, routes } = installTelemetrySources(app, config);
  const context: AppContext = { config, db, now, lifecycle, gifts, metrics, builds, routes };
  for (const register of ROUTES) register(app, context);
  return app;
}

const ROUTES = [
  registerHealth,
  registerPlay,
  registerVisitorGifts,
  registerGetGift,
  registerOpenRedeem,
  registerGetRedeem,
  registerCompleteRedeem,
  registerTelemetry,
];

function createFastify(config: AppConfig, destination: pino.DestinationStream): App {
  const logger: FastifyBaseLogger = pino(
    {
      name: 'api',
      level: config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: { req: serializeRequest },
    },
    destination,
  );
  return Fastify({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestTimeout: config.requestTimeoutMs ?? TIMEOUTS.requestMs,
    keepAliveTimeout: TIMEOUTS.keepAliveMs,
    http: {
      headersTimeout: config.requestTimeoutMs ?? TIMEOUTS.headersMs,
      connectionsCheckingInterval: Math.min(TIMEOUTS.checkIntervalMs, config.requestTimeoutMs ?? Infinity),
    },
    logController: new LogController({ disableRequestLogging: true }),
    // Fastify's own closing 503 has another body and no CORS headers (see installShutdownGuard).
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(BODY_LIMIT_BYTES),
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
}

async function installHttpLayer(app: App, config: AppConfig, lifecycle: Lifecycle): Promise<void> {
  // A text/plain POST is what a cross-site form can send without a CORS preflight.
  app.removeContentTypeParser('text/plain');
  // zod/mini installs no messages.
  z.config(z.locales.en());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  installErrorHandlers(app, BODY_LIMIT_BYTES);
  const origins = [config.hostOrigin, ...config.corsOrigins];
  installCors(app, origins);
  // No hooks on every request.
  await app.register(cookie, { hook: false });
  app.decorate('visitorCookie', config.visitorCookie);
  setHashKey(config.addressHashKey);
  installSameSiteGuard(app, origins);
  installProxyWarning(app, config.trustProxy);
  // After CORS, so a refusal while closing carries its headers.
  installShutdownGuard(app, lifecycle);
}

/** Answers carry ids and voucher codes: no shared or browser cache may keep them. */
function installNoStore(app: App): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('cache-control', 'no-store');
    void reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });
}
