/**
 * The API's configuration, read from the environment once at start-up. Every problem names the
 * variable; all problems are reported together.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { EnvError, httpOrigin, readHostOrigin, readInt, readPort } from 'server/env';
import type { AllowedOrigin } from 'server/origins';
import { readTrustProxy, type TrustProxy } from 'server/trust-proxy';

export const API_ROOT = join(__dirname, '..');

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Limits {
  playsPerVisitorPerDay: number;
  playsPerIpPerDay: number;
  redeemAttemptsPerIpPerMinute: number;
}

/** What `buildApp` needs. */
export interface AppConfig {
  /**
   * The host's origin (HOST_ORIGIN); unset, the host's port on any hostname, which the same-site
   * guard accepts only from a page on the hostname the API was reached at.
   */
  hostOrigin: AllowedOrigin;
  /** Further origins allowed through CORS (remote teams' standalone dev shells). */
  corsOrigins: string[];
  /** Fastify's `trustProxy`: off, or the proxies' addresses, CIDR ranges or proxy-addr's range names. */
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  /** Probability of a win, 0..1. */
  gameWinRate: number;
  giftTtlDays: number;
  redeemSessionTtlMinutes: number;
  limits: Limits;
}

/** What `index.ts` needs on top: where to listen and where the data lives. */
export interface ServerConfig extends AppConfig {
  port: number;
  /** Undefined: every interface. */
  listenHost: string | undefined;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  pgliteDataDir: string;
  catalogueFile: string;
  /** After SIGTERM, how long readiness says "not ready" while requests are still served. */
  shutdownDelayMs: number;
}

type Env = Record<string, string | undefined>;

function readWinRate(env: Env): number {
  const raw = env.GAME_WIN_RATE;
  if (raw === undefined || raw === '') return 0.3;
  const value = /^\d*\.?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= 1)) throw new EnvError(`GAME_WIN_RATE must be a number from 0 to 1, got "${raw}"`);
  return value;
}

function readLogLevel(env: Env): LogLevel {
  const raw = env.LOG_LEVEL;
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === raw);
  if (!level) throw new EnvError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return level;
}

function readOrigins(env: Env): string[] {
  const raw = env.CORS_ORIGINS;
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    const value = part.trim();
    const origin = httpOrigin(value);
    if (!origin) {
      throw new EnvError(`CORS_ORIGINS must be comma-separated origins such as http://localhost:4301, got "${value}"`);
    }
    return origin;
  });
}

function readDatabaseUrl(env: Env): string | undefined {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new EnvError('DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@localhost:5432/gifts');
  }
  return raw;
}

function readPath(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'memory://' || isAbsolute(raw)) return raw;
  return resolve(raw);
}

function readDelay(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= max))
    throw new EnvError(`${name} must be a whole number of milliseconds from 0 to ${max}, got "${raw}"`);
  return value;
}

function readListenHost(env: Env): string | undefined {
  const raw = env.API_HOST;
  return raw === undefined || raw === '' ? undefined : raw;
}

/** Reads every variable; throws one EnvError listing every problem. */
export function readServerConfig(env: Env = process.env): ServerConfig {
  const problems: string[] = [];
  const read = <T>(reader: () => T, fallback: T): T => {
    try {
      return reader();
    } catch (error) {
      if (!(error instanceof EnvError)) throw error;
      problems.push(error.message);
      return fallback;
    }
  };
  const config: ServerConfig = {
    port: read(() => readPort('api', env), 0),
    listenHost: readListenHost(env),
    hostOrigin: read(() => readHostOrigin(env), ''),
    corsOrigins: read(() => readOrigins(env), []),
    trustProxy: read(
      () =>
        readTrustProxy(
          'X-Forwarded-For from any client, so anyone could choose their own address and escape the per-address limits',
          env,
        ),
      false,
    ),
    logLevel: read(() => readLogLevel(env), 'info'),
    gameWinRate: read(() => readWinRate(env), 0),
    giftTtlDays: read(() => readInt('GIFT_TTL_DAYS', 30, env), 0),
    redeemSessionTtlMinutes: read(() => readInt('REDEEM_SESSION_TTL_MINUTES', 30, env), 0),
    limits: {
      playsPerVisitorPerDay: read(() => readInt('PLAYS_PER_VISITOR_PER_DAY', 5, env), 0),
      playsPerIpPerDay: read(() => readInt('PLAYS_PER_IP_PER_DAY', 50, env), 0),
      redeemAttemptsPerIpPerMinute: read(() => readInt('REDEEM_ATTEMPTS_PER_IP_PER_MINUTE', 10, env), 0),
    },
    databaseUrl: read(() => readDatabaseUrl(env), undefined),
    databasePoolSize: read(() => readInt('DATABASE_POOL_SIZE', 10, env), 0),
    pgliteDataDir: readPath(env, 'PGLITE_DATA_DIR', join(API_ROOT, '.data', 'pglite')),
    catalogueFile: readPath(env, 'PRIZE_CATALOGUE_FILE', join(API_ROOT, 'catalogue.json')),
    shutdownDelayMs: read(() => readDelay(env, 'SHUTDOWN_DELAY_MS', 0, 120_000), 0),
  };
  if (problems.length > 0) throw new EnvError(problems.join('\n'));
  return config;
}
