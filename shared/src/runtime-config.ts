/**
 * The host's runtime configuration (`GET /config.json`): what an integrator changes without a
 * rebuild. Parsed by the host's server at start-up, which writes it into its pages as parsed, and
 * by a page that fetches `/config.json` itself (one with no configuration in it) before mounting.
 */
import * as z from 'zod/mini';
import { grantProblems, grantsOf, MAX_REMOTES, type ComposedRoute } from './composition';
import { isBuildId } from './deployment';
import { isRemoteName, pathPatternProblem, PUBLISHED_ROUTES_LIMITS } from './published-routes';
import { LAYOUT_NAMES, REMOTE_NAMES, SERVER_DATA_QUERIES, VALIDATOR_NAMES, type RemoteName } from './remotes';
import {
  ConfigError,
  DEFAULT_BUILD_CHECK_INTERVAL_MS,
  DEFAULT_REMOTE_TIMEOUT_MS,
  remoteOriginError,
} from './runtime-config-checks';

// What the browser checks before it has this schema (runtime-config-checks.ts), as this module's too.
export {
  allowedRemoteOrigins,
  ConfigError,
  DEFAULT_BUILD_CHECK_INTERVAL_MS,
  DEFAULT_REMOTE_TIMEOUT_MS,
  isAllowedRemoteUrl,
  RemoteOriginError,
  telemetryEnabled,
} from './runtime-config-checks';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const positiveInt = z.int({ error: 'must be a whole number' }).check(z.minimum(1, 'must be at least 1'));

/** Iconify's request timeout is kept within the 2 to 5 seconds the specification allows. */
export const ICON_TIMEOUT_MIN_MS = 2_000;
export const ICON_TIMEOUT_MAX_MS = 5_000;
export const DEFAULT_ICON_TIMEOUT_MS = 3_000;

const key = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(200, 'must be at most 200 characters'),
    z.regex(/^[A-Za-z0-9._:-]+$/, 'must contain only letters, digits, ".", "_", ":" and "-"'),
  );
const measurementId = z
  .string()
  .check(z.trim(), z.regex(/^[A-Z]{1,3}-[A-Z0-9-]{4,40}$/, 'must look like G-XXXXXXXXXX'));

/** Each third party is off unless its section is present (README: "Third parties"). */
const analyticsSchema = z.strictObject({
  /** The Mixpanel project token. */
  mixpanelToken: key,
  /** Where events are sent; Mixpanel's own host when absent (EU residency: https://api-eu.mixpanel.com). */
  apiHost: z.optional(httpUrl),
});

const tagManagerSchema = z.strictObject({
  measurementId,
  /** The gtag.js loader; Google's when absent. */
  scriptUrl: z.optional(httpUrl),
});

const chatSchema = z.strictObject({
  /** The Crisp website id (Crisp settings → Website settings → Setup). */
  crispWebsiteId: key,
  /** The Crisp loader; Crisp's own (https://client.crisp.chat/l.js) when absent. */
  scriptUrl: z.optional(httpUrl),
});

const iconsSchema = z.strictObject({
  /** The Iconify API asked for icons that are not bundled, e.g. https://api.iconify.design. */
  serviceUrl: httpUrl,
  timeoutMs: z._default(
    z
      .int({ error: 'must be a whole number' })
      .check(
        z.minimum(ICON_TIMEOUT_MIN_MS, `must be at least ${ICON_TIMEOUT_MIN_MS}`),
        z.maximum(ICON_TIMEOUT_MAX_MS, `must be at most ${ICON_TIMEOUT_MAX_MS}`),
      ),
    DEFAULT_ICON_TIMEOUT_MS,
  ),
});

/**
 * The host's own telemetry of what its pages meet (remote loads, error pages, page speed, blocked
 * content), sent to the API (docs/decisions/0026-browser-telemetry.md). Unlike the third parties
 * it is on unless switched off: it carries nothing personal and goes to the site's own API.
 */
const telemetrySchema = z.strictObject({
  enabled: z.boolean({ error: 'must be true or false' }),
});

const remoteName = z
  .string()
  .check(
    z.refine(
      isRemoteName,
      'must be a remote name: a lower-case letter, then lower-case letters and digits, not host or other',
    ),
  );

/**
 * The remotes to compose, by name: the URL of each one's `mf-manifest.json`. Every remote of the
 * registry (`./remotes`) is required; others, which the host's build never saw, may be added.
 */
const remotesSchema = z.record(remoteName, httpUrl);

/** A remote's URLs by name, the registry's always present. */
export type RemoteUrls = Readonly<Record<RemoteName, string>> & Readonly<Record<string, string>>;

/** `value` written as a browser writes an origin: `https://gifts.example.com`, `http://localhost:3001`. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

const origin = z
  .string()
  .check(
    z.refine(
      isOrigin,
      'must be an origin: scheme, host and port only, no path or trailing slash (https://gifts.example.com)',
    ),
  );

/** A build id, as deploys name builds (`shared/deployment`). */
const buildId = z.string().check(z.refine(isBuildId, 'must be a build id (letters, digits, ".", "_" and "-")'));

/** Per remote, optionally: a remote's build id. */
const remoteBuildsSchema = z.record(remoteName, buildId);

/** Per remote, optionally: the URL of a build's `mf-manifest.json`. */
const remoteFallbacksSchema = z.record(remoteName, httpUrl);

const pathPattern = z
  .string()
  .check(
    z.refine((path) => pathPatternProblem(path) === undefined, 'must be a route path such as /news or /news/:storyId'),
  );

/** Per remote, the path patterns it may claim (docs/integrators.md "Granting paths"). */
const routeGrantsSchema = z.record(
  remoteName,
  z
    .array(pathPattern)
    .check(z.maxLength(PUBLISHED_ROUTES_LIMITS.routes, `must grant at most ${PUBLISHED_ROUTES_LIMITS.routes} paths`)),
);

const flag = z.optional(z.boolean());

/** A route of the table the host's server composed (`./composition`), as it writes it into the page. */
const composedRouteSchema = z.strictObject({
  remote: remoteName,
  module: z.string(),
  path: pathPattern,
  layout: z.enum(LAYOUT_NAMES),
  title: z.string(),
  validator: z.optional(z.enum(VALIDATOR_NAMES)),
  serverData: z.optional(z.enum(SERVER_DATA_QUERIES)),
  noindex: flag,
  prerendered: flag,
});

export const runtimeConfigSchema = z.strictObject({
  remotes: remotesSchema,
  /**
   * Per remote, the paths it may claim: a route it publishes on another path is left out.
   * Absent for a remote: the registry's paths for a remote of this repository, none for another.
   */
  routeGrants: z.optional(routeGrantsSchema),
  /**
   * The route table, as the host's server composed it from the remotes' published routes and the
   * grants. Absent (a static `/config.json`): the page composes it from the manifests itself.
   */
  routes: z.optional(
    z
      .array(composedRouteSchema)
      .check(z.maxLength(MAX_REMOTES * PUBLISHED_ROUTES_LIMITS.routes, 'has too many routes')),
  ),
  /**
   * The build each remote's URL above serves this page, as the host's server gave it (its cohort's
   * build, or a pinned one): what the page's version check compares with `buildsUrl`'s answer.
   * Absent (the development server, a host without remote sources): the remote's own
   * `builds/latest.json` is watched instead.
   */
  remoteBuilds: z.optional(remoteBuildsSchema),
  /**
   * Per remote, the manifest of the build the page loads when its own cannot be loaded after the
   * retries (the last known good: a canary's visitor gets the stable build, a stable build's
   * visitor the stable build before it). Absent: no fallback, the in-layout error.
   */
  remoteFallbacks: z.optional(remoteFallbacksSchema),
  /**
   * Where the page asks which build of each remote it should run now (`shared/deployment`'s
   * REMOTE_BUILDS_PATH, on the host's own origin): a path, answered per visitor.
   */
  buildsUrl: z.optional(
    z.string().check(z.regex(/^\/[A-Za-z0-9._/-]*$/, 'must be a path on the host, such as /remote-builds.json')),
  ),
  /**
   * Whether the page asks `buildsUrl` for its builds on each in-app navigation as well as at its
   * polls: the host's server says so while a remote's deployment is unsettled (a canary running,
   * or a change in the last few minutes), so an abort, a promotion or a rollback reaches the
   * page on its next navigation. Absent: only at the polls.
   */
  checkBuildsOnNavigation: z.optional(z.boolean({ error: 'must be true or false' })),
  /**
   * The origins the remotes' code may come from: every remote URL above, and every script a
   * remote's manifest names, must be at one of them. Absent: the origins of the remote URLs
   * (`allowedRemoteOrigins`).
   */
  remoteOrigins: z.optional(z.array(origin)),
  apiBaseUrl: httpUrl,
  buildCheckIntervalMs: z._default(positiveInt, DEFAULT_BUILD_CHECK_INTERVAL_MS),
  remoteTimeoutMs: z._default(positiveInt, DEFAULT_REMOTE_TIMEOUT_MS),
  analytics: z.optional(analyticsSchema),
  tagManager: z.optional(tagManagerSchema),
  chat: z.optional(chatSchema),
  icons: z.optional(iconsSchema),
  telemetry: z.optional(telemetrySchema),
});

export type RuntimeConfig = Omit<z.output<typeof runtimeConfigSchema>, 'remotes' | 'routes'> & {
  remotes: RemoteUrls;
  routes?: ComposedRoute[];
};
export type AnalyticsConfig = NonNullable<RuntimeConfig['analytics']>;
export type TagManagerConfig = NonNullable<RuntimeConfig['tagManager']>;
export type ChatConfig = NonNullable<RuntimeConfig['chat']>;
export type IconsConfig = NonNullable<RuntimeConfig['icons']>;

/** Throws a ConfigError whose message names every offending key. */
export function parseRuntimeConfig(input: unknown): RuntimeConfig {
  const result = runtimeConfigSchema.safeParse(input, { reportInput: true });
  const composition = compositionProblems(input);
  if (result.success) {
    if (composition.length > 0) throwConfig(composition);
    const refused = remoteOriginError(result.data);
    if (refused) throw refused;
    return result.data as RuntimeConfig;
  }
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => (key ? `${key}.${k}` : k));
      return `unknown key ${keys.map((k) => `"${k}"`).join(', ')}`;
    }
    if (issue.code === 'invalid_key')
      return `"${key}" must be a remote name: a lower-case letter, then lower-case letters and digits`;
    if (issue.code === 'invalid_type' && !key) return 'the configuration must be a JSON object';
    if (issue.code === 'invalid_type' && issue.input === undefined) return `"${key}" is missing`;
    if (issue.code === 'custom' && typeof issue.input === 'string')
      return `"${key}" ${issue.message}, got "${issue.input}"`;
    return `"${key}" ${issue.message}`;
  });
  return throwConfig([...problems, ...composition]);
}

const recordAt = (input: unknown, key: string): Record<string, unknown> => {
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
};

/**
 * What the schema cannot say, read from the input so that it is named beside the schema's own
 * problems: the registry's remotes present, a bounded count, keys of configured remotes only,
 * each path granted to one remote.
 */
function compositionProblems(input: unknown): string[] {
  const names = Object.keys(recordAt(input, 'remotes'));
  const problems = REMOTE_NAMES.filter((name) => !names.includes(name)).map((name) => `"remotes.${name}" is missing`);
  if (names.length > MAX_REMOTES) problems.push(`"remotes" names ${names.length} remotes, more than ${MAX_REMOTES}`);
  for (const key of ['remoteBuilds', 'remoteFallbacks', 'routeGrants'] as const)
    for (const name of Object.keys(recordAt(input, key)))
      if (!names.includes(name)) problems.push(`unknown key "${key}.${name}": no remote of "remotes" has that name`);
  const granted = recordAt(input, 'routeGrants');
  const grants = names.map((name) => {
    const paths = granted[name];
    const own = Array.isArray(paths) ? paths.filter((path): path is string => typeof path === 'string') : undefined;
    return [name, own ?? grantsOf({}, name)] as const;
  });
  problems.push(...grantProblems(grants).map((problem) => `"routeGrants": ${problem}`));
  return problems;
}

function throwConfig(problems: string[]): never {
  throw new ConfigError(`Invalid runtime configuration: ${problems.join('; ')}`);
}
