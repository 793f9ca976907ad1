/**
 * The runtime configuration the host's server publishes at `/config.json`, from environment
 * variables with local defaults, or from a JSON file named by RUNTIME_CONFIG_FILE.
 */
import { readFileSync } from 'node:fs';
import { readInt, readPort, secretValue } from 'server/env';
import { composedRemotesFromEnv } from 'server/composed-remotes';
import { MIN_PREVIEW_KEY_LENGTH } from 'server/preview-token';
import { remoteVariable } from 'shared/composition';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';
import {
  ConfigError,
  DEFAULT_BUILD_CHECK_INTERVAL_MS,
  DEFAULT_REMOTE_TIMEOUT_MS,
  parseRuntimeConfig,
  RemoteOriginError,
  type RuntimeConfig,
} from 'shared/runtime-config';
import { DEFAULT_HOSTNAME } from './page-hostname';

type Env = Record<string, string | undefined>;

type RemoteUrlEnv = { readonly [R in RemoteName as `remotes.${R}`]: (typeof REMOTES)[R]['urlEnv'] };

/** `remotes.gifts` is set by REMOTE_GIFTS_URL, and so on for every remote in the registry. */
const REMOTE_URL_ENV = Object.fromEntries(
  REMOTE_NAMES.map((name) => [`remotes.${name}`, REMOTES[name].urlEnv]),
) as RemoteUrlEnv;

/** Which environment variable sets which configuration key, for error messages and the README. */
export const CONFIG_ENV = {
  ...REMOTE_URL_ENV,
  remoteOrigins: 'REMOTE_ORIGINS',
  apiBaseUrl: 'API_BASE_URL',
  buildCheckIntervalMs: 'BUILD_CHECK_INTERVAL_MS',
  remoteTimeoutMs: 'REMOTE_TIMEOUT_MS',
  'analytics.mixpanelToken': 'MIXPANEL_TOKEN',
  'analytics.apiHost': 'MIXPANEL_API_HOST',
  'tagManager.measurementId': 'GTAG_MEASUREMENT_ID',
  'tagManager.scriptUrl': 'GTAG_SCRIPT_URL',
  'chat.crispWebsiteId': 'CRISP_WEBSITE_ID',
  'chat.scriptUrl': 'CRISP_SCRIPT_URL',
  'icons.serviceUrl': 'ICON_SERVICE_URL',
  'icons.timeoutMs': 'ICON_TIMEOUT_MS',
  'telemetry.enabled': 'TELEMETRY',
} as const;

/**
 * A third party's section, present only when its main variable is set: `[section, main key]`.
 * Setting one of its other variables alone is a mistake worth stopping for.
 */
const OPTIONAL_SECTIONS: ReadonlyArray<readonly [string, keyof typeof CONFIG_ENV]> = [
  ['analytics', 'analytics.mixpanelToken'],
  ['tagManager', 'tagManager.measurementId'],
  ['chat', 'chat.crispWebsiteId'],
  ['icons', 'icons.serviceUrl'],
];

function optionalSections(env: Env): Record<string, Record<string, string | number>> {
  const sections: Record<string, Record<string, string | number>> = {};
  for (const [section, mainKey] of OPTIONAL_SECTIONS) {
    const entries = Object.entries(CONFIG_ENV)
      .filter(([key]) => key.startsWith(`${section}.`))
      .map(([key, variable]) => [key.slice(section.length + 1), variable, env[variable]] as const)
      .filter(([, , value]) => value !== undefined && value !== '');
    if (entries.length === 0) continue;
    const mainVariable = CONFIG_ENV[mainKey];
    if (!env[mainVariable]) {
      const others = entries.map(([, variable]) => variable).join(', ');
      throw new ConfigError(`${others} is set but ${mainVariable} is not: set ${mainVariable} to switch ${section} on`);
    }
    sections[section] = Object.fromEntries(
      entries.map(([key, variable, value]) => [
        key,
        key.endsWith('Ms') ? readInt(variable, 0, env) : (value as string),
      ]),
    );
  }
  return sections;
}

/**
 * The origins of the URLs no variable set, each `http://localhost:<port>`: the host's server sends
 * them at the page's own hostname (`./page-hostname`). None with RUNTIME_CONFIG_FILE.
 */
export function defaultOrigins(env: Env): Set<string> {
  if (env.RUNTIME_CONFIG_FILE) return new Set();
  const parts = [
    ...REMOTE_NAMES.filter((name) => !env[REMOTES[name].urlEnv]),
    ...(env.API_BASE_URL ? [] : (['api'] as const)),
  ];
  return new Set(parts.map((part) => `http://${DEFAULT_HOSTNAME}:${readPort(part, env)}`));
}

/** The remote's URL variable, or its server on this machine at its port. */
function manifestUrl(env: Env, remote: RemoteName): string {
  return env[REMOTES[remote].urlEnv] || `http://${DEFAULT_HOSTNAME}:${readPort(remote, env)}/mf-manifest.json`;
}

/** The same error, of the same kind, with more said. */
function rephrased(error: ConfigError, message: string): ConfigError {
  return error instanceof RemoteOriginError
    ? new RemoteOriginError(error.outside, error.allowed, message)
    : new ConfigError(message);
}

/** REMOTE_ORIGINS, comma-separated: `https://gifts.example.com,https://cdn.example.com`. Unset: none given. */
function remoteOrigins(env: Env): { remoteOrigins?: string[] } {
  const value = env[CONFIG_ENV.remoteOrigins];
  if (!value) return {};
  return {
    remoteOrigins: value
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ''),
  };
}

/** TELEMETRY=off switches the pages' telemetry off; `on` or unset leaves it on. */
function telemetry(env: Env): { telemetry?: { enabled: boolean } } {
  const variable = CONFIG_ENV['telemetry.enabled'];
  const value = env[variable]?.trim();
  if (!value) return {};
  if (value === 'on' || value === 'off') return { telemetry: { enabled: value === 'on' } };
  throw new ConfigError(`${variable} must be "on" or "off", got "${value}"`);
}

function fromFile(path: string): RuntimeConfig {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`RUNTIME_CONFIG_FILE ${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    return parseRuntimeConfig(JSON.parse(raw));
  } catch (error) {
    if (error instanceof ConfigError) throw rephrased(error, `${error.message} (in ${path})`);
    throw new ConfigError(`RUNTIME_CONFIG_FILE ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The registry's remotes, then those ADDED_REMOTES names in its order, and the grants
 * REMOTE_<NAME>_PATHS set (server/composed-remotes.ts); a ConfigError naming every problem.
 */
function composedRemotes(env: Env): Pick<RuntimeConfig, 'remotes' | 'routeGrants'> {
  let composed: ReturnType<typeof composedRemotesFromEnv>;
  try {
    composed = composedRemotesFromEnv(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const remotes = {
    ...Object.fromEntries(REMOTE_NAMES.map((name) => [name, manifestUrl(env, name)])),
    ...Object.fromEntries(composed.added.map(({ name, url }) => [name, url])),
  } as RuntimeConfig['remotes'];
  return Object.keys(composed.grants).length > 0 ? { remotes, routeGrants: { ...composed.grants } } : { remotes };
}

export function runtimeConfigFromEnv(env: Env): RuntimeConfig {
  if (env.RUNTIME_CONFIG_FILE) return fromFile(env.RUNTIME_CONFIG_FILE);
  const candidate = {
    ...composedRemotes(env),
    ...remoteOrigins(env),
    apiBaseUrl: env.API_BASE_URL || `http://${DEFAULT_HOSTNAME}:${readPort('api', env)}`,
    buildCheckIntervalMs: readInt(CONFIG_ENV.buildCheckIntervalMs, DEFAULT_BUILD_CHECK_INTERVAL_MS, env),
    remoteTimeoutMs: readInt(CONFIG_ENV.remoteTimeoutMs, DEFAULT_REMOTE_TIMEOUT_MS, env),
    ...optionalSections(env),
    ...telemetry(env),
  };
  try {
    return parseRuntimeConfig(candidate);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // `"remoteOrigins.1"` is set by the variable of `remoteOrigins`.
    const added = Object.keys(candidate.remotes).map((name) => [`remotes.${name}`, remoteVariable(name, 'URL')]);
    const hints = Object.entries({ ...Object.fromEntries(added), ...CONFIG_ENV })
      .filter(([key]) => error.message.includes(`"${key}"`) || error.message.includes(`"${key}.`))
      .map(([key, variable]) => `${key} is set by ${variable}`);
    throw rephrased(error, `${error.message} (${hints.join('; ')})`);
  }
}

const IN_PRODUCTION = 'must be set when HOST_ORIGIN is (a production deployment)';

/**
 * What a production deployment (HOST_ORIGIN set) must name that development leaves to this
 * machine's ports (an added remote's REMOTE_<NAME>_URL is required anywhere, by
 * `runtimeConfigFromEnv`): each registered remote's manifest URL and the API's origin (unset, pages would
 * send visitors to http://localhost:<port>), unless RUNTIME_CONFIG_FILE gives the whole
 * configuration; and, with telemetry on, the pages' ticket secret (unset, the API labels no
 * build, so the release run and the build alerts see nothing). One line per missing variable.
 */
/**
 * Why the configuration cannot be served without reading the remotes: with REMOTE_REFRESH_MS=0
 * the server reads no manifest, so a remote the registry does not name would have no route at all.
 */
export function unreadRemotesProblem(config: RuntimeConfig, refreshMs: number): string | undefined {
  if (refreshMs > 0) return undefined;
  const added = Object.keys(config.remotes).filter((name) => !(REMOTE_NAMES as readonly string[]).includes(name));
  if (added.length === 0) return undefined;
  return `REMOTE_REFRESH_MS=0 reads no remote's manifest, so ${added.join(', ')}, which this build does not know, would have no page: set REMOTE_REFRESH_MS above 0, or compose only the registry's remotes`;
}

export function productionGaps(env: Env, { telemetry }: { telemetry: boolean }): string[] {
  if (!env.HOST_ORIGIN) return [];
  const gaps: string[] = [];
  if (!env.RUNTIME_CONFIG_FILE) {
    for (const name of REMOTE_NAMES)
      if (!env[REMOTES[name].urlEnv])
        gaps.push(`${REMOTES[name].urlEnv} ${IN_PRODUCTION}: the URL of the ${name} remote's mf-manifest.json`);
    if (!env.API_BASE_URL) gaps.push(`API_BASE_URL ${IN_PRODUCTION}: the API's origin as pages reach it`);
  }
  if (telemetry && !env.PAGE_TICKET_SECRETS && !env.PAGE_TICKET_SECRETS_FILE)
    gaps.push(
      `PAGE_TICKET_SECRETS ${IN_PRODUCTION} and telemetry is on: the secret pages' telemetry tickets are signed with, the API's PAGE_TICKET_SECRETS too (or TELEMETRY=off)`,
    );
  return gaps;
}

/** A remote's preview key variable, next to its URL variable: REMOTE_GIFTS_URL, REMOTE_GIFTS_PREVIEW_KEY. */
export function previewKeyEnv(remote: string): string {
  return remoteVariable(remote, 'URL').replace(/_URL$/, '_PREVIEW_KEY');
}

/**
 * Each remote's preview keys (REMOTE_<NAME>_PREVIEW_KEY, comma-separated: the current key and,
 * while a key is rotated, the next): the secrets its team signs a preview with
 * (server/preview-token.ts), which pins that remote to a build for one browser. Unset or empty:
 * that remote cannot be previewed. A key shorter than MIN_PREVIEW_KEY_LENGTH is refused, naming
 * the variable (never its value), as a key that short could be guessed; so is a key given to two
 * remotes, which would let one team pin the other's remote. Each may come from a file
 * (REMOTE_<NAME>_PREVIEW_KEY_FILE, `server/secret-files.ts`). `remotes`: the configured remotes, an
 * added one's key being REMOTE_NEWS_PREVIEW_KEY alike.
 */
export function previewKeysFromEnv(
  env: Env,
  remotes: readonly string[] = REMOTE_NAMES,
): Partial<Record<string, string[]>> {
  const keys: Partial<Record<string, string[]>> = {};
  const owners = new Map<string, string>();
  for (const remote of remotes) {
    const variable = previewKeyEnv(remote);
    const values = (secretValue(env, variable) ?? '').split(',').map((value) => value.trim());
    if (values.every((value) => value === '')) continue;
    values.forEach((value, index) => {
      const which = values.length > 1 ? `${variable}'s key ${index + 1}` : variable;
      if (value.length < MIN_PREVIEW_KEY_LENGTH)
        throw new ConfigError(
          `${which} must be at least ${MIN_PREVIEW_KEY_LENGTH} characters (it has ${value.length}): a shorter key could be guessed; make one with openssl rand -base64 32`,
        );
      const owner = owners.get(value);
      if (owner !== undefined)
        throw new ConfigError(
          `${which} is also a key of ${owner}: each remote needs keys of its own, or one team could pin another's remote`,
        );
      owners.set(value, variable);
    });
    keys[remote] = values;
  }
  return keys;
}
