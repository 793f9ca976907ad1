/**
 * The runtime configuration's defaults and the checks that need no schema, so the page's code can
 * use them without zod (runtime-config.ts has the schema).
 */

export const DEFAULT_BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;

export interface RemoteOrigins {
  remotes: Readonly<Partial<Record<string, string>>>;
  remoteFallbacks?: Readonly<Record<string, string | undefined>>;
  remoteOrigins?: readonly string[];
}

export function telemetryEnabled(config: { telemetry?: { enabled: boolean } }): boolean {
  return config.telemetry?.enabled !== false;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The message is for the operator; a visitor is told which address was refused (`urls`). */
export class RemoteOriginError extends ConfigError {
  constructor(
    readonly outside: ReadonlyArray<{ key: string; url: string }>,
    readonly allowed: readonly string[],
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

/** `remoteOrigins`, or else the remote URLs' own origins: what `script-src` names for the remotes. */
export function allowedRemoteOrigins(config: RemoteOrigins): string[] {
  if (config.remoteOrigins) return [...new Set(config.remoteOrigins)];
  const origins = Object.values(config.remotes).map((url) => (url === undefined ? undefined : originOf(url)));
  return [...new Set(origins.filter((origin): origin is string => origin !== undefined))];
}

export function isAllowedRemoteUrl(url: string, origins: readonly string[]): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && origins.includes(parsed.origin);
  } catch {
    return false;
  }
}

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
