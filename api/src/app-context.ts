import { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type AppConfig } from './config';
import { type Database } from './db/database';
import { type GiftCache } from './features/gifts/gift-cache';
import { type BuildRegistry } from './features/telemetry/build-registry';
import { type KnownRoutes } from './features/telemetry/known-routes';
import { type VisitorCookieConfig } from './http/visitor';
import { type ApiMetrics } from './metrics/api-metrics';
import { type Clock } from './time';

export interface Lifecycle {
  stopping: boolean;
}

export interface AppContext {
  config: AppConfig;
  db: Database;
  now: Clock;
  lifecycle: Lifecycle;
  gifts: GiftCache;
  metrics: ApiMetrics;
  builds: BuildRegistry;
  routes: KnownRoutes;
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    visitorCookie: VisitorCookieConfig;
  }
  interface FastifyContextConfig {
    notFoundMessage?: string;
    /** Non-JSON bodies admitted (beacons): only where no cookie is read and nothing of a visitor's changes. */
    bodyTypes?: readonly string[];
    /** Skips the same-site guard (CSP reports): only where nothing but counters move. */
    anySite?: boolean;
  }
}
