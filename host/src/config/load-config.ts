/** Checks the answer to `/config.json` (fetch-config.ts) before the app mounts: a chunk of its own. */
// Before any module makes a schema.
import './zod-without-eval';
import { ConfigError, parseRuntimeConfig, type RuntimeConfig } from 'shared/runtime-config';
import { CONFIG_URL } from './config-url';

export async function loadRuntimeConfig(request: Promise<Response>): Promise<RuntimeConfig> {
  let response: Response;
  try {
    response = await request;
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
  return parseRuntimeConfig(body);
}
