/**
 * The host's runtime configuration (`GET /config.json`): what an integrator changes without a
 * rebuild. Parsed once, by the host's server at start-up and by the browser before mounting.
 */
import * as z from 'zod/mini';
import { isBuildId } from './deployment';
import { REMOTE_NAMES, type RemoteName } from './remotes';
import { ConfigError, remoteOriginError } from './runtime-config-checks';

// What the browser checks before it has this schema (runtime-config-checks.ts), as this module's too.
export {
  allowedRemoteOrigins,
  ConfigError,
  isAllowedRemoteUrl,
  RemoteOriginError,
  telemetryEnabled,
} from './runtime-config-checks';

export const DEFAULT_BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;

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

/** Every remote in the registry (`./remotes`): the URL of its `mf-manifest.json`. */
const remotesSchema = z.strictObject(
  Object.fromEntries(REMOTE_NAMES.map((name) => [name, httpUrl])) as Record<RemoteName, typeof httpUrl>,
);

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
const remoteBuildsSchema = z.strictObject(
  Object.fromEntries(REMOTE_NAMES.map((name) => [name, z.optional(buildId)])) as Record<
    RemoteName,
    z.ZodMiniOptional<typeof buildId>
  >,
);

/** Per remote, optionally: the URL of a build's `mf-manifest.json`. */
const remoteFallbacksSchema = z.strictObject(
  Object.fromEntries(REMOTE_NAMES.map((name) => [name, z.optional(httpUrl)])) as Record<
    RemoteName,
    z.ZodMiniOptional<typeof httpUrl>
  >,
);

export const runtimeConfigSchema = z.strictObject({
  remotes: remotesSchema,
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
   * visitor the stable build before it). Absent: no fallback, the in-layout error as before.
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

export type RuntimeConfig = z.output<typeof runtimeConfigSchema>;
export type AnalyticsConfig = NonNullable<RuntimeConfig['analytics']>;
export type TagManagerConfig = NonNullable<RuntimeConfig['tagManager']>;
export type ChatConfig = NonNullable<RuntimeConfig['chat']>;
export type IconsConfig = NonNullable<RuntimeConfig['icons']>;

/** Throws a ConfigError whose message names every offending key. */
export function parseRuntimeConfig(input: unknown): RuntimeConfig {
  const result = runtimeConfigSchema.safeParse(input, { reportInput: true });
  if (result.success) {
    const refused = remoteOriginError(result.data);
    if (refused) throw refused;
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => (key ? `${key}.${k}` : k));
      return `unknown key ${keys.map((k) => `"${k}"`).join(', ')}`;
    }
    if (issue.code === 'invalid_type' && !key) return 'the configuration must be a JSON object';
    if (issue.code === 'invalid_type' && issue.input === undefined) return `"${key}" is missing`;
    if (issue.code === 'custom' && typeof issue.input === 'string')
      return `"${key}" ${issue.message}, got "${issue.input}"`;
    return `"${key}" ${issue.message}`;
  });
  return throwConfig(problems);
}

function throwConfig(problems: string[]): never {
  throw new ConfigError(`Invalid runtime configuration: ${problems.join('; ')}`);
}
