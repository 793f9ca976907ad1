/** What every route handler is given: configuration, storage, the clock, the metrics, the builds and routes. */
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

/** Where the process is in its life: readiness says "not ready" once it is stopping. */
export interface Lifecycle {
  stopping: boolean;
}

export interface AppContext {
  config: AppConfig;
  db: Database;
  now: Clock;
  lifecycle: Lifecycle;
  /** Gift rows in memory, kept current by change notifications. */
  gifts: GiftCache;
  /** The API's series, and the registry `GET /metrics` serves. */
  metrics: ApiMetrics;
  /** The build ids each part's deploys published: telemetry's build labels. */
  builds: BuildRegistry;
  /** The parts and routes telemetry is labelled with, learned from the remotes' manifests. */
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
    /** How the visitor cookie is named, signed and checked (`http/visitor.ts` reads it from the request's server). */
    visitorCookie: VisitorCookieConfig;
  }
  interface FastifyContextConfig {
    /** The 404 message when the route's id is malformed (such an id cannot exist). */
    notFoundMessage?: string;
    /**
     * Body types the route takes besides JSON, which the same-site guard then admits: telemetry's
     * `text/plain` beacons (`navigator.sendBeacon` with a string). Only for a route that reads no
     * cookie and changes nothing of a visitor's.
     */
    bodyTypes?: readonly string[];
    /**
     * Browsers send to it on their own, from any page and possibly without Origin (CSP reports):
     * the same-site guard lets it be. Only for a route that moves nothing but counters.
     */
    anySite?: boolean;
  }
}
