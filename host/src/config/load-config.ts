/** Fetches and checks `/config.json` before the app mounts. */
import { ConfigError, parseRuntimeConfig, type RuntimeConfig } from 'shared/runtime-config';

export const CONFIG_URL = '/config.json';

export async function loadRuntimeConfig(fetchImpl: typeof fetch = (input, init) => window.fetch(input, init)): Promise<RuntimeConfig> {
  let response: Response;
  try {
    response = await fetchImpl(CONFIG_URL, { cache: 'no-store' });
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
