/** What every route handler is given: configuration, storage and the clock. */
import { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type AppConfig } from './config';
import { type Database } from './db/database';
import { type GiftCache } from './features/gifts/gift-cache';
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
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The 404 message when the route's id is malformed (such an id cannot exist). */
    notFoundMessage?: string;
  }
}
