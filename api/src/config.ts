/**
 * The API's configuration, read from the environment once at start-up through one schema
 * (`API_ENV`). Every problem names the variable; all problems are reported together.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import {
  deriveEnv,
  type Env,
  EnvError,
  envSchema,
  existingFile,
  fromSecretFile,
  HOST_ORIGIN_VARIABLES,
  hostOriginOf,
  httpOrigin,
  intBetween,
  list,
  listenAddress,
  type LogLevel,
  logLevel,
  millis,
  numberBetween,
  origin,
  parseEnv,
  partPort,
  positiveInt,
  type Reader,
  readPort,
  refusal,
  shutdownDelay,
  url,
} from 'server/env';
import { type ComposedRemotes, composedRemotesFromEnv } from 'server/composed-remotes';
import { METRICS_VARIABLES, type MetricsEnv, metricsEnvOf } from 'server/metrics';
import type { AllowedOrigin } from 'server/origins';
import { type TrustProxy, trustProxy } from 'server/trust-proxy';
import type { z } from 'zod';
import { DEPLOYMENT_FILE, HOST_DEPLOYMENT_FILE } from 'shared/deployment';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';
import { HOST_PART } from 'shared/telemetry';
import { SECURE_VISITOR_COOKIE, VISITOR_COOKIE, type VisitorCookieConfig } from './http/visitor';

export const API_ROOT = join(__dirname, '..');

export interface Limits {
  playsPerVisitorPerDay: number;
  playsPerIpPerDay: number;
  redeemAttemptsPerIpPerMinute: number;
  /** Opened or resumed, whatever the answer. */
  redeemOpensPerIpPerMinute: number;
  redeemSessionsPerGift: number;
  /** Counted by each process. */
  unknownRedeemReadsPerIpPerMinute: number;
  /** With CSP report posts; counted by each process. */
  telemetryBatchesPerIpPerMinute: number;
}

export interface BuildsConfig {
  /** Each part's `builds/latest.json` URL; a remote's origin also labels CSP violations. */
  sources: Record<string, string>;
  /** In composition order: the registry's remotes, then ADDED_REMOTES. */
  manifests: Record<string, string>;
  grants: Record<string, string[]>;
  /** 0: never read (every build id is `other`, no route learned). */
  pollMs: number;
}

export interface AppConfig {
  /** Unset: the host's port on the hostname the API was reached at. */
  hostOrigin: AllowedOrigin;
  corsOrigins: string[];
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  gameWinRate: number;
  /** Default 10 s. */
  requestTimeoutMs?: number;
  giftTtlDays: number;
  redeemSessionTtlMinutes: number;
  limits: Limits;
  builds: BuildsConfig;
  /** As pages reach it; labels CSP violations. */
  apiOrigin: string;
  visitorCookie: VisitorCookieConfig;
  addressHashKey: Buffer;
  /** Telemetry carries a build only on a ticket these verify (server/page-ticket.ts). */
  pageTicketSecrets: string[];
}

export interface ServerConfig extends AppConfig {
  port: number;
  listenHost: string | undefined;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  databaseConnectRetryMs: number;
  pgliteDataDir: string;
  /** A PGlite dump a new data folder starts from instead of running initdb (the tests' template). */
  pgliteInitialData: string | undefined;
  catalogueFile: string;
  shutdownDelayMs: number;
  metrics: MetricsEnv;
}

const origins: Reader<string[]> = list((entry, name) => {
  const value = httpOrigin(entry);
  if (!value) throw refusal(name, 'comma-separated origins such as http://localhost:4301', entry);
  return value;
});

const databaseUrl = url({
  protocols: ['postgres:', 'postgresql:'],
  expected: 'a PostgreSQL URL such as postgres://user:password@localhost:5432/gifts',
  secret: true,
});

const httpUrl = url({
  protocols: ['http:', 'https:'],
  expected: 'an http(s) URL such as http://localhost:3001/mf-manifest.json',
});

/** The shortest secret accepted: 32 characters, such as `openssl rand -base64 32` prints (44). */
export const MIN_SECRET_CHARS = 32;
const SECRET_EXAMPLE = 'such as the output of `openssl rand -base64 32`';

/** A secret's problem, without the secret itself (messages are printed and logged). */
function checkSecret(value: string, name: string): string {
  if (value.length < MIN_SECRET_CHARS || /[\s,]/.test(value))
    throw new EnvError(
      `${name} must hold secrets of at least ${MIN_SECRET_CHARS} characters without spaces or commas, ${SECRET_EXAMPLE}; got one of ${value.length} characters`,
    );
  return value;
}

/** VISITOR_COOKIE_SECRETS: comma-separated secrets, newest first; undefined when unset. */
const secrets: Reader<string[] | undefined> = (raw, name) =>
  raw === undefined ? undefined : raw.split(',').map((part) => checkSecret(part.trim(), name));

/** IP_HASH_SECRET: one secret; undefined when unset. */
const secret: Reader<string | undefined> = (raw, name) => (raw === undefined ? undefined : checkSecret(raw, name));

/** Production gives the secrets every process signs with; development may use a random one. */
function visitorCookieOf(env: {
  HOST_ORIGIN: string | undefined;
  VISITOR_COOKIE_SECRETS: string[] | undefined;
}): VisitorCookieConfig {
  const keys = (env.VISITOR_COOKIE_SECRETS ?? [randomBytes(32).toString('base64url')]).map((value) =>
    Buffer.from(value),
  );
  const https = env.HOST_ORIGIN?.startsWith('https:') ?? false;
  return { name: https ? SECURE_VISITOR_COOKIE : VISITOR_COOKIE, secure: https, secrets: keys };
}

const IN_PRODUCTION = 'must be set when HOST_ORIGIN is (a production deployment)';

/** Production (HOST_ORIGIN set) must name what development defaults to this machine or a random secret. */
function productionGaps(env: Record<string, unknown> & { HOST_ORIGIN: string | undefined; BUILDS_POLL_MS: number }) {
  if (env.HOST_ORIGIN === undefined) return;
  const gaps: string[] = [];
  if (env.VISITOR_COOKIE_SECRETS === undefined)
    gaps.push(
      `VISITOR_COOKIE_SECRETS ${IN_PRODUCTION}: one secret of at least ${MIN_SECRET_CHARS} characters, ${SECRET_EXAMPLE}, the same for every API process`,
    );
  if (env.PAGE_TICKET_SECRETS === undefined)
    gaps.push(
      `PAGE_TICKET_SECRETS ${IN_PRODUCTION}: the secret the host's server signs its pages' telemetry tickets with, at least ${MIN_SECRET_CHARS} characters, ${SECRET_EXAMPLE}, the same on the host's server and every API process`,
    );
  if (env.API_BASE_URL === undefined)
    gaps.push(
      `API_BASE_URL ${IN_PRODUCTION}: the API's origin as pages reach it, as the host's server is given it (the origins telemetry's CSP reports are labelled with)`,
    );
  if (env.BUILDS_POLL_MS > 0)
    for (const name of REMOTE_NAMES)
      if (env[REMOTES[name].urlEnv] === undefined)
        gaps.push(
          `${REMOTES[name].urlEnv} ${IN_PRODUCTION}: the ${name} remote's mf-manifest.json URL, as the host's server is given it (its builds are read beside it), or BUILDS_POLL_MS=0`,
        );
  if (gaps.length > 0) throw new EnvError(gaps.join('\n'));
}

/** Derived from the cookie's secret when unset: rotating that one changes the hashes too. */
function addressHashKeyOf(env: {
  IP_HASH_SECRET: string | undefined;
  VISITOR_COOKIE_SECRETS: string[] | undefined;
}): Buffer {
  if (env.IP_HASH_SECRET !== undefined) return Buffer.from(env.IP_HASH_SECRET);
  const first = env.VISITOR_COOKIE_SECRETS?.[0] ?? randomBytes(32);
  return createHmac('sha256', first).update('address hashes').digest();
}

const MAX_BUILDS_POLL_MS = 24 * 60 * 60_000;

/** The same variables and defaults as the host's server reads. */
const REMOTE_URL_VARIABLES: Record<string, Reader<string | number | undefined>> = Object.fromEntries(
  REMOTE_NAMES.flatMap((name) => [
    [REMOTES[name].urlEnv, httpUrl],
    [REMOTES[name].portEnv, partPort(name).read],
  ]),
);

function remoteManifestsOf(env: Record<string, unknown>, composed: ComposedRemotes): Record<string, string> {
  const registry = (name: RemoteName): [string, string] => [
    name,
    (env[REMOTES[name].urlEnv] as string | undefined) ??
      `http://localhost:${env[REMOTES[name].portEnv] as number}/mf-manifest.json`,
  ];
  return Object.fromEntries([...REMOTE_NAMES.map(registry), ...composed.added.map(({ name, url }) => [name, url])]);
}

function buildsConfigOf(
  env: Record<string, unknown> & {
    HOST_ORIGIN: string | undefined;
    HOST_PORT: string | undefined;
    BUILDS_POLL_MS: number;
  },
  composed: ComposedRemotes,
): BuildsConfig {
  // Unset, HOST_ORIGIN allows the host's port on any hostname; its builds are read on this machine.
  const host = env.HOST_ORIGIN ?? `http://localhost:${readPort('host', { HOST_PORT: env.HOST_PORT })}`;
  const manifests = remoteManifestsOf(env, composed);
  const sources = {
    [HOST_PART]: `${host}/${HOST_DEPLOYMENT_FILE}`,
    ...Object.fromEntries(
      Object.entries(manifests).map(([name, manifest]) => [name, new URL(DEPLOYMENT_FILE, manifest).href]),
    ),
  };
  return { sources, manifests, grants: { ...composed.grants }, pollMs: env.BUILDS_POLL_MS };
}

/** Relative to the current folder, or `memory://`. */
function path(fallback: string): Reader<string> {
  return (raw) => (raw === undefined ? fallback : raw === 'memory://' || isAbsolute(raw) ? raw : resolve(raw));
}

/** Every variable the API reads, in the order its problems are reported. */
const API_VARIABLES = envSchema({
  API_PORT: partPort('api').read,
  API_HOST: listenAddress,
  ...HOST_ORIGIN_VARIABLES,
  API_BASE_URL: origin('http://localhost:3004'),
  CORS_ORIGINS: origins,
  TRUST_PROXY: trustProxy(
    'X-Forwarded-For from any client, so anyone could choose their own address and escape the per-address limits',
  ),
  LOG_LEVEL: logLevel,
  GAME_WIN_RATE: numberBetween(0.3, 0, 1),
  GIFT_TTL_DAYS: positiveInt(30),
  REDEEM_SESSION_TTL_MINUTES: positiveInt(30),
  PLAYS_PER_VISITOR_PER_DAY: positiveInt(5),
  PLAYS_PER_IP_PER_DAY: positiveInt(50),
  REDEEM_ATTEMPTS_PER_IP_PER_MINUTE: positiveInt(10),
  REDEEM_OPENS_PER_IP_PER_MINUTE: positiveInt(30),
  REDEEM_SESSIONS_PER_GIFT: positiveInt(5),
  UNKNOWN_REDEEM_READS_PER_IP_PER_MINUTE: positiveInt(20),
  TELEMETRY_BATCHES_PER_IP_PER_MINUTE: positiveInt(120),
  ...REMOTE_URL_VARIABLES,
  BUILDS_POLL_MS: millis(60_000, MAX_BUILDS_POLL_MS),
  DATABASE_URL: fromSecretFile(databaseUrl),
  DATABASE_POOL_SIZE: positiveInt(10),
  DATABASE_CONNECT_RETRY_MS: millis(30_000, 10 * 60_000),
  PGLITE_DATA_DIR: path(join(API_ROOT, '.data', 'pglite')),
  PGLITE_INITIAL_DATA: existingFile,
  PRIZE_CATALOGUE_FILE: path(join(API_ROOT, 'catalogue.json')),
  SHUTDOWN_DELAY_MS: shutdownDelay,
  REQUEST_TIMEOUT_MS: intBetween(10_000, 500, 120_000),
  ...METRICS_VARIABLES,
  // Secrets, each also from a file (`<NAME>_FILE`, such as a systemd credential).
  VISITOR_COOKIE_SECRETS: fromSecretFile(secrets),
  IP_HASH_SECRET: fromSecretFile(secret),
  PAGE_TICKET_SECRETS: fromSecretFile(secrets),
});

type ApiEnvValues = z.output<typeof API_VARIABLES>;

/** The variables' values, with the remotes they compose beyond the registry's. */
const API_ENV = deriveEnv(API_VARIABLES, (env) => {
  productionGaps(env);
  return env;
});

/** The configuration from every variable's value. */
function configOf(env: ApiEnvValues, composed: ComposedRemotes): ServerConfig {
  return {
    port: env.API_PORT,
    listenHost: env.API_HOST,
    hostOrigin: hostOriginOf(env),
    builds: buildsConfigOf(env, composed),
    apiOrigin: env.API_BASE_URL ?? `http://localhost:${env.API_PORT}`,
    corsOrigins: env.CORS_ORIGINS,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    gameWinRate: env.GAME_WIN_RATE,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    giftTtlDays: env.GIFT_TTL_DAYS,
    redeemSessionTtlMinutes: env.REDEEM_SESSION_TTL_MINUTES,
    limits: {
      playsPerVisitorPerDay: env.PLAYS_PER_VISITOR_PER_DAY,
      playsPerIpPerDay: env.PLAYS_PER_IP_PER_DAY,
      redeemAttemptsPerIpPerMinute: env.REDEEM_ATTEMPTS_PER_IP_PER_MINUTE,
      redeemOpensPerIpPerMinute: env.REDEEM_OPENS_PER_IP_PER_MINUTE,
      redeemSessionsPerGift: env.REDEEM_SESSIONS_PER_GIFT,
      unknownRedeemReadsPerIpPerMinute: env.UNKNOWN_REDEEM_READS_PER_IP_PER_MINUTE,
      telemetryBatchesPerIpPerMinute: env.TELEMETRY_BATCHES_PER_IP_PER_MINUTE,
    },
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseConnectRetryMs: env.DATABASE_CONNECT_RETRY_MS,
    pgliteDataDir: env.PGLITE_DATA_DIR,
    pgliteInitialData: env.PGLITE_INITIAL_DATA,
    catalogueFile: env.PRIZE_CATALOGUE_FILE,
    shutdownDelayMs: env.SHUTDOWN_DELAY_MS,
    metrics: metricsEnvOf(env),
    visitorCookie: visitorCookieOf(env),
    addressHashKey: addressHashKeyOf(env),
    // None in development: no build label (development without `npm start`).
    pageTicketSecrets: env.PAGE_TICKET_SECRETS ?? [],
  };
}

/** `read`'s value, or its EnvError's problems added to `problems`. */
function collect<T>(problems: string[], read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    problems.push(error.message);
    return undefined;
  }
}

/**
 * Reads every variable, and the remotes ADDED_REMOTES composes as the host's server reads them
 * (REMOTE_<NAME>_URL and REMOTE_<NAME>_PATHS); throws one EnvError listing every problem.
 */
export function readServerConfig(env: Env = process.env): ServerConfig {
  const problems: string[] = [];
  const values = collect(problems, () => parseEnv(API_ENV, env));
  const composed = collect(problems, () => composedRemotesFromEnv(env));
  if (values === undefined || composed === undefined) throw new EnvError(problems.join('\n'));
  return configOf(values, composed);
}
