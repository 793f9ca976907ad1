/**
 * A server's environment, read through one schema (zod): each variable the server reads is a
 * field of it, read by a `Reader`. Unset and empty are the same; a bad value becomes an issue
 * whose message names the variable and what it got, and `parseEnv` reports every issue of the
 * environment together, in one EnvError. A secret's reader (`fromSecretFile`) also takes its
 * value from the file `<NAME>_FILE` names (`secret-files.ts`).
 */
import { statSync, type Stats } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { DEFAULT_PORTS, type PartName } from 'shared/ports';
import { z } from 'zod';
import { type Env, EnvError, type Reader } from './env-error';
import { anyHostnameOnPort, type AllowedOrigin } from './origins';
import { readsSecretFile, secretFileVariable, secretValue } from './secret-files';

export { EnvError, type Env, type Reader };
export { fromSecretFile, secretFileVariable, secretValue } from './secret-files';

type Readers = Record<string, Reader<unknown>>;
type Values<R extends Readers> = { [K in keyof R]: R[K] extends Reader<infer T> ? T : never };

/** Runs `read`, turning its EnvError into an issue of the schema being parsed. */
function attempt<T>(read: () => T, ctx: z.RefinementCtx): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
    return z.NEVER;
  }
}

/** A variable's text as its reader gets it: empty is unset; a secret's may come from its file. */
function rawValue(env: Env, name: string, read: Reader<unknown>): string | undefined {
  if (readsSecretFile(read)) return secretValue(env, name);
  return env[name] === '' ? undefined : env[name];
}

/**
 * The schema of an environment: one field per variable, each read by its reader; a reader made
 * with `fromSecretFile` also reads `<NAME>_FILE`.
 */
export function envSchema<R extends Readers>(readers: R): z.ZodType<Values<R>, Env> {
  const names = Object.entries(readers).flatMap(([name, read]) =>
    readsSecretFile(read) ? [name, secretFileVariable(name)] : [name],
  );
  const shape = Object.fromEntries(names.map((name) => [name, z.string().optional()]));
  return z
    .object(shape)
    .transform((env, ctx) =>
      Object.fromEntries(
        Object.entries(readers).map(([name, read]) => [
          name,
          attempt(() => read(rawValue(env, name, read), name), ctx),
        ]),
      ),
    ) as unknown as z.ZodType<Values<R>, Env>;
}

/**
 * A schema whose values are worked out from several variables once each is read (an origin that
 * defaults to another variable's port); `derive` may throw an EnvError like a reader.
 */
export function deriveEnv<T, U>(schema: z.ZodType<T, Env>, derive: (values: T) => U): z.ZodType<U, Env> {
  return schema.transform((values, ctx) => attempt(() => derive(values), ctx));
}

/** The environment as `schema` reads it, or one EnvError with every problem, a line each. */
export function parseEnv<T>(schema: z.ZodType<T, Env>, env: Env = process.env): T {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new EnvError(result.error.issues.map((issue) => issue.message).join('\n'));
}

/**
 * For a server's start: its environment, or, with a bad one, every problem on stderr and exit
 * code 1, before the server binds anything.
 */
export function parseEnvOrExit<T>(label: string, schema: z.ZodType<T, Env>, env: Env = process.env): T {
  try {
    return parseEnv(schema, env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`[${label}] cannot start: ${error.message}`);
    process.exit(1);
  }
}

// Readers.

/**
 * The one wording of a refused value: `NAME must be <expected>, got "<raw>"`. Leave `raw` out
 * where the value may hold a secret (a URL with a password).
 */
export function refusal(name: string, expected: string, raw?: string): EnvError {
  return new EnvError(raw === undefined ? `${name} must be ${expected}` : `${name} must be ${expected}, got "${raw}"`);
}

/** A whole number within `[min, max]` (digits only), else `fallback` when unset. */
function wholeNumber(fallback: number, accepts: (value: number) => boolean, expected: string): Reader<number> {
  return (raw, name) => {
    if (raw === undefined) return fallback;
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!accepts(value)) throw refusal(name, expected, raw);
    return value;
  };
}

/** A decimal number from `min` to `max` (digits and one point, no sign or exponent). */
export function numberBetween(fallback: number, min: number, max: number): Reader<number> {
  return (raw, name) => {
    if (raw === undefined) return fallback;
    const value = /^\d*\.?\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(value >= min && value <= max)) throw refusal(name, `a number from ${min} to ${max}`, raw);
    return value;
  };
}

/** Comma-separated entries, trimmed, blanks dropped, each read by `item`; none when unset. */
export function list<T>(item: (entry: string, name: string) => T): Reader<T[]> {
  return (raw, name) =>
    (raw ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => item(entry, name));
}

export interface UrlRule {
  /** Accepted schemes, with their colon (`https:`). */
  protocols: readonly string[];
  /** What the refusal names as the expected value: "an http(s) URL such as …". */
  expected: string;
  /** Leave the value out of the refusal: it may hold a password. */
  secret?: boolean;
}

/** A URL of one of `rule.protocols`, normalised as `URL` writes it; undefined when unset. */
export function url(rule: UrlRule): Reader<string | undefined> {
  return (raw, name) => {
    if (raw === undefined) return undefined;
    let parsed: URL | undefined;
    try {
      parsed = new URL(raw);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !rule.protocols.includes(parsed.protocol))
      throw refusal(name, rule.expected, rule.secret ? undefined : raw);
    return rule.secret ? raw : parsed.href;
  };
}

/** A value `pattern` accepts, trimmed; `fallback` when unset. */
export function matching(fallback: string, pattern: RegExp, expected: string): Reader<string> {
  return (raw, name) => {
    if (raw === undefined) return fallback;
    if (!pattern.test(raw.trim())) throw refusal(name, expected, raw);
    return raw.trim();
  };
}

export function port(fallback: number): Reader<number> {
  return wholeNumber(
    fallback,
    (value) => Number.isInteger(value) && value >= 1 && value <= 65535,
    'a port number between 1 and 65535',
  );
}

export function positiveInt(fallback: number): Reader<number> {
  return wholeNumber(fallback, (value) => Number.isInteger(value) && value >= 1, 'a positive whole number');
}

/** A whole number from `min` to `max`. */
export function intBetween(fallback: number, min: number, max: number): Reader<number> {
  return wholeNumber(
    fallback,
    (value) => Number.isInteger(value) && value >= min && value <= max,
    `a whole number from ${min} to ${max}`,
  );
}

export function millis(fallback: number, max: number): Reader<number> {
  return wholeNumber(
    fallback,
    (value) => value >= 0 && value <= max,
    `a whole number of milliseconds from 0 to ${max}`,
  );
}

/** The text as given, undefined when unset. */
export const text: Reader<string | undefined> = (raw) => raw;

/** An address to listen on (LISTEN_HOST, API_HOST); undefined, every interface, when unset or blank. */
export const listenAddress: Reader<string | undefined> = (raw) => {
  const value = raw?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** The http(s) origin of `raw` (`https://example.com/path` → `https://example.com`), if it has one. */
export function httpOrigin(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

/** An origin such as `example`, trimmed of path, query and default port; undefined when unset. */
export function origin(example: string): Reader<string | undefined> {
  return (raw, name) => {
    if (raw === undefined) return undefined;
    const value = httpOrigin(raw);
    if (!value) throw refusal(name, `an origin such as ${example}`, raw);
    return value;
  };
}

/**
 * Secrets as a comma-separated list, newest first, each at least `minLength` characters
 * (PAGE_TICKET_SECRETS); undefined when unset or blank. The message names the variable, never a
 * secret.
 */
export function secretList(minLength: number): Reader<string[] | undefined> {
  return (raw, name) => {
    if (raw === undefined || raw.trim() === '') return undefined;
    const secrets = raw.split(',').map((secret) => secret.trim());
    secrets.forEach((secret, index) => {
      if (secret.length < minLength)
        throw new EnvError(
          `${name}${secrets.length > 1 ? `'s secret ${index + 1}` : ''} must be at least ${minLength} characters (it has ${secret.length}): make one with openssl rand -base64 32`,
        );
    });
    return secrets;
  };
}

/** An absolute path to an existing folder, such as a deploy target; else `fallback`. */
export function existingFolder(fallback: string): Reader<string> {
  return (raw, name) => {
    if (raw === undefined) return fallback;
    if (!isAbsolute(raw)) throw refusal(name, 'an absolute path', raw);
    if (!statOf(raw)?.isDirectory()) throw refusal(name, 'an existing folder', raw);
    return raw;
  };
}

/**
 * A file that must exist, relative to the current folder or absolute; undefined when unset. A
 * missing one is a configuration problem at start, not an error from deep within the first read.
 */
export const existingFile: Reader<string | undefined> = (raw, name) => {
  if (raw === undefined) return undefined;
  const file = resolve(raw);
  if (!statOf(file)?.isFile()) throw refusal(name, 'an existing file', raw);
  return file;
};

/** What is at `path`, or undefined when nothing is (or it cannot be read). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** pino's levels, quietest last: `silent` writes nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL: the least severe level a server logs (`info` when unset; `warn` leaves out the request log). */
export const logLevel: Reader<LogLevel> = (raw, name) => {
  if (raw === undefined) return 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === raw);
  if (!level) throw refusal(name, `one of ${LOG_LEVELS.join(', ')}`, raw);
  return level;
};

// What several servers read alike.

/**
 * A part the repository's list of ports does not hold: a remote that carries its own spec
 * (its `remote-spec.ts`), with its own default port and the variable that moves it.
 */
export interface OwnPart {
  name: string;
  port: number;
  portEnv: string;
}

/** A part of `DEFAULT_PORTS`, by name, or one that carries its own port. */
export type PartRef = PartName | OwnPart;

const partName = (part: PartRef): string => (typeof part === 'string' ? part : part.name);

/** The part's port variable (HOST_PORT, REMOTE_GIFTS_PORT, API_PORT, …) and its reader. */
export function partPort(part: PartRef): { name: string; read: Reader<number> } {
  if (typeof part !== 'string') return { name: part.portEnv, read: port(part.port) };
  return { name: DEFAULT_PORTS[part].env, read: port(DEFAULT_PORTS[part].port) };
}

/** HOST_ORIGIN, and HOST_PORT for its default: what `hostOriginOf` needs. */
export const HOST_ORIGIN_VARIABLES = {
  HOST_ORIGIN: origin('http://localhost:3000'),
  HOST_PORT: text,
};

/**
 * The origin visitors load the host from (HOST_ORIGIN); the remotes and the API allow it through
 * CORS. Unset, the development default: the host's port (HOST_PORT, read only then) on whatever
 * hostname the page was opened at (see `isAllowedOrigin`).
 */
export function hostOriginOf(values: {
  HOST_ORIGIN: string | undefined;
  HOST_PORT: string | undefined;
}): AllowedOrigin {
  if (values.HOST_ORIGIN !== undefined) return values.HOST_ORIGIN;
  const host = partPort('host');
  return anyHostnameOnPort(host.read(values.HOST_PORT, host.name));
}

/**
 * After SIGTERM, how long a server keeps serving while its health route answers 503
 * (SHUTDOWN_DELAY_MS): time for a load balancer to notice.
 */
export const shutdownDelay = millis(0, 120_000);

/** Where a metrics listener binds unless METRICS_HOST says otherwise: loopback, out of visitors' reach. */
export const DEFAULT_METRICS_HOST = '127.0.0.1';

/** A port that may be left unset (undefined then); 0, "any port", is refused like any other bad value. */
function optionalPort(): Reader<number | undefined> {
  const read = port(1);
  return (raw, name) => (raw === undefined ? undefined : read(raw, name));
}

/**
 * The variables of a metrics listener (`server/metrics`); add them to a server's schema. Here
 * rather than beside the listener, so the schemas in this module can read them too.
 */
export const METRICS_VARIABLES = {
  METRICS_PORT: optionalPort(),
  METRICS_HOST: ((raw) => raw?.trim() || DEFAULT_METRICS_HOST) as Reader<string>,
};

/** What a static part's server (a remote's) is told by its environment. */
export interface StaticPartEnv {
  /** The part served: its metrics carry it as their `part` label. */
  part: string;
  port: number;
  /** The folder served: STATIC_ROOT (such as a deploy target) or the package's own build. */
  root: string;
  hostOrigin: AllowedOrigin;
  /** LISTEN_HOST, such as 127.0.0.1 behind a reverse proxy; undefined: every interface. */
  listenHost: string | undefined;
  shutdownDelayMs: number;
  /** METRICS_PORT: where its metrics listener serves `GET /metrics`; undefined, no listener. */
  metricsPort: number | undefined;
  /** METRICS_HOST, loopback by default. */
  metricsHost: string;
  /** LOG_LEVEL. */
  logLevel: LogLevel;
}

/**
 * A remote's server's environment: its port, STATIC_ROOT, HOST_ORIGIN, LISTEN_HOST,
 * SHUTDOWN_DELAY_MS, METRICS_PORT, METRICS_HOST and LOG_LEVEL.
 */
export function staticPartEnv(part: PartRef, defaultRoot: string): z.ZodType<StaticPartEnv, Env> {
  const { name, read } = partPort(part);
  // The port's variable is the part's (REMOTE_GIFTS_PORT, …): a key known only here.
  const readers: Readers = {
    [name]: read,
    STATIC_ROOT: existingFolder(defaultRoot),
    ...HOST_ORIGIN_VARIABLES,
    LISTEN_HOST: listenAddress,
    SHUTDOWN_DELAY_MS: shutdownDelay,
    ...METRICS_VARIABLES,
    LOG_LEVEL: logLevel,
  };
  return deriveEnv(envSchema(readers), (values) => ({
    part: partName(part),
    port: values[name] as number,
    root: values.STATIC_ROOT as string,
    hostOrigin: hostOriginOf(values as Parameters<typeof hostOriginOf>[0]),
    listenHost: values.LISTEN_HOST as string | undefined,
    shutdownDelayMs: values.SHUTDOWN_DELAY_MS as number,
    metricsPort: values.METRICS_PORT as number | undefined,
    metricsHost: values.METRICS_HOST as string,
    logLevel: values.LOG_LEVEL as LogLevel,
  }));
}

// One variable at a time, for code that reads a single one (a webpack config's dev-server port,
// the host's runtime configuration).

export function readPort(part: PartRef, env: Env = process.env): number {
  const { name, read } = partPort(part);
  return parseEnv(envSchema({ [name]: read }), env)[name] as number;
}

export function readInt(name: string, fallback: number, env: Env = process.env): number {
  return parseEnv(envSchema({ [name]: positiveInt(fallback) }), env)[name] as number;
}
