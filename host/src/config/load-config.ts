/**
 * Checks the runtime configuration (fetch-config.ts) before the app mounts. One the host's server
 * wrote into the page was parsed by that server with the schema (`shared/runtime-config`, zod),
 * and only its remote origins are checked again here, at once. One fetched from `/config.json`
 * (the development server's page, or `dist/` on a static host) is parsed with the schema, whose
 * chunk is fetched while the configuration is: the page's first script carries no zod.
 */
import type { RuntimeConfig } from 'shared/runtime-config';
import { ConfigError, remoteOriginError } from 'shared/runtime-config-checks';
import { CONFIG_URL, type ConfigRequest } from './fetch-config';

export type ConfigParser = (input: unknown) => RuntimeConfig;

/** The schema's parser, in a chunk of its own (with zod). */
export function loadSchemaParser(): Promise<ConfigParser> {
  return import('shared/runtime-config').then((schema) => schema.parseRuntimeConfig);
}

/** A configuration the host's server parsed: an object, whose remote URLs are at allowed origins. */
function checkServerParsed(body: unknown): RuntimeConfig {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ConfigError('Invalid runtime configuration: the configuration must be a JSON object');
  }
  const config = body as RuntimeConfig;
  if (typeof config.remotes !== 'object' || config.remotes === null) {
    throw new ConfigError('Invalid runtime configuration: "remotes" is missing');
  }
  const refused = remoteOriginError(config);
  if (refused) throw refused;
  return config;
}

export async function loadRuntimeConfig(
  request: ConfigRequest,
  schemaParser: () => Promise<ConfigParser> = loadSchemaParser,
): Promise<RuntimeConfig> {
  // Asked for at once, so that it comes while the configuration does.
  const parser = request.inPage ? undefined : schemaParser();
  // A failed chunk is reported below, once the configuration has arrived (or not).
  parser?.catch(() => undefined);
  let response: Response;
  try {
    response = await request.response;
  } catch (error) {
    throw new ConfigError(`The runtime configuration ${CONFIG_URL} could not be fetched: ${String(error)}`);
  }
  if (!response.ok) {
    throw new ConfigError(`The runtime configuration ${CONFIG_URL} answered HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ConfigError(`The runtime configuration ${CONFIG_URL} is not valid JSON`);
  }
  if (!parser) return checkServerParsed(body);
  let parse: ConfigParser;
  try {
    parse = await parser;
  } catch (error) {
    throw new ConfigError(`The runtime configuration's checks could not be loaded: ${String(error)}`);
  }
  return parse(body);
}
