/**
 * The host's runtime configuration (`GET /config.json`): what an integrator changes without a
 * rebuild. Parsed once, by the host's server at start-up and by the browser before mounting.
 */
import * as z from 'zod/mini';

export const DEFAULT_BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const positiveInt = z.int({ error: 'must be a whole number' }).check(z.minimum(1, 'must be at least 1'));

export const runtimeConfigSchema = z.strictObject({
  remotes: z.strictObject({
    gifts: httpUrl,
    redeem: httpUrl,
    content: httpUrl,
  }),
  apiBaseUrl: httpUrl,
  buildCheckIntervalMs: z._default(positiveInt, DEFAULT_BUILD_CHECK_INTERVAL_MS),
  remoteTimeoutMs: z._default(positiveInt, DEFAULT_REMOTE_TIMEOUT_MS),
});

export type RuntimeConfig = z.output<typeof runtimeConfigSchema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Throws a ConfigError whose message names every offending key. */
export function parseRuntimeConfig(input: unknown): RuntimeConfig {
  const result = runtimeConfigSchema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => (key ? `${key}.${k}` : k));
      return `unknown key ${keys.map((k) => `"${k}"`).join(', ')}`;
    }
    if (issue.code === 'invalid_type' && !key) return 'the configuration must be a JSON object';
    if (issue.code === 'invalid_type' && issue.input === undefined) return `"${key}" is missing`;
    return `"${key}" ${issue.message}`;
  });
  return throwConfig(problems);
}

function throwConfig(problems: string[]): never {
  throw new ConfigError(`Invalid runtime configuration: ${problems.join('; ')}`);
}
