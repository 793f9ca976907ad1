/**
 * The runtime configuration's checks that need no schema: its errors, the remote origins a page
 * may take code from, whether telemetry is on. `./runtime-config` (the schema, zod) uses and
 * re-exports them; code that needs only them imports them from here (the host's loading plugin
 * checks every remote script's URL with them).
 */

/** The part of the runtime configuration (`./runtime-config`) that says where remote code may come from. */
export interface RemoteOrigins {
  remotes: Readonly<Partial<Record<string, string>>>;
  /** Each remote's last known good build (runtime-config.ts): from an allowed origin too. */
  remoteFallbacks?: Readonly<Record<string, string | undefined>>;
  remoteOrigins?: readonly string[];
}

/** Whether the host's pages send telemetry: unless the configuration switches it off. */
export function telemetryEnabled(config: { telemetry?: { enabled: boolean } }): boolean {
  return config.telemetry?.enabled !== false;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * A remote URL outside the allowed remote origins. Its message is for the operator; a visitor is
 * told in plain words which address the site refused (`urls`).
 */
export class RemoteOriginError extends ConfigError {
  constructor(
    /** The remote URLs outside the allowed origins, by configuration key (`remotes.gifts`). */
    readonly outside: ReadonlyArray<{ key: string; url: string }>,
    readonly allowed: readonly string[],
    /** The message, when a caller adds to it (the variables that set the keys). */
    message?: string,
  ) {
    const allowedList = allowed.length > 0 ? allowed.join(', ') : 'none';
    const problems = outside.map(
      ({ key, url }) => `"${key}" ${url} is not at an allowed remote origin ("remoteOrigins": ${allowedList})`,
    );
    super(message ?? `Invalid runtime configuration: ${problems.join('; ')}`);
    this.name = 'RemoteOriginError';
  }

  get urls(): string[] {
    return this.outside.map(({ url }) => url);
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * The origins the remotes' code may come from: `remoteOrigins` as configured, or else the origins
 * of the remote URLs themselves. What a Content-Security-Policy's `script-src` names for the
 * remotes, and what the host checks every remote script's URL against.
 */
export function allowedRemoteOrigins(config: RemoteOrigins): string[] {
  if (config.remoteOrigins) return [...new Set(config.remoteOrigins)];
  const origins = Object.values(config.remotes).map((url) => (url === undefined ? undefined : originOf(url)));
  return [...new Set(origins.filter((origin): origin is string => origin !== undefined))];
}

/** Whether `url` is an http(s) URL at one of `origins`. */
export function isAllowedRemoteUrl(url: string, origins: readonly string[]): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && origins.includes(parsed.origin);
  } catch {
    return false;
  }
}

/**
 * The RemoteOriginError for the configuration's remote URLs outside its allowed remote origins,
 * if any is.
 */
export function remoteOriginError(config: RemoteOrigins): RemoteOriginError | undefined {
  const allowed = allowedRemoteOrigins(config);
  const outside = [
    ...Object.entries(config.remotes).flatMap(([name, url]) =>
      url === undefined ? [] : [{ key: `remotes.${name}`, url }],
    ),
    ...Object.entries<string | undefined>(config.remoteFallbacks ?? {}).flatMap(([name, url]) =>
      url === undefined ? [] : [{ key: `remoteFallbacks.${name}`, url }],
    ),
  ].filter(({ url }) => !isAllowedRemoteUrl(url, allowed));
  return outside.length > 0 ? new RemoteOriginError(outside, allowed) : undefined;
}
