/**
 * Reads the runtime configuration. The host's server writes it into the page, checked against the
 * schema when the server started: the page takes it as it is, with no request and no schema, but
 * for the remotes' origins (inlineConfig). A page without it (the development server's, or an
 * integrator's static host) fetches `/config.json` and checks it with the schema, which comes in
 * a chunk of its own (load-config.ts): zod is in no page's first script.
 */
import { RUNTIME_CONFIG_ELEMENT_ID } from 'shared/page-data';
import type { RuntimeConfig } from 'shared/runtime-config';
import { ConfigError, remoteOriginError } from 'shared/runtime-config-checks';
import { CONFIG_URL } from './config-url';

/** The fetched file's check: the schema's chunk (tests give the module itself). */
export type ConfigCheck = () => Promise<{
  loadRuntimeConfig(request: Promise<Response>): Promise<RuntimeConfig>;
}>;

const checkInChunk: ConfigCheck = () => import(/* webpackChunkName: "config-check" */ './load-config');

export async function readRuntimeConfig(
  fetchImpl: typeof fetch = (input, init) => window.fetch(input, init),
  doc: Pick<Document, 'getElementById'> = document,
  check: ConfigCheck = checkInChunk,
): Promise<RuntimeConfig> {
  const inline = doc.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.textContent;
  if (inline) return inlineConfig(inline);
  // The request and the schema's chunk load side by side.
  const request = fetchImpl(CONFIG_URL, { cache: 'no-store' });
  const checked = check();
  request.catch(() => undefined);
  const { loadRuntimeConfig } = await checked;
  return loadRuntimeConfig(request);
}

/**
 * What the host's server wrote, taken as it is but for what a page changed on the way could use
 * against the visitor: text that is no configuration at all, and remotes outside the allowed
 * origins (the same check as the schema's, without the schema), whose code would run in the page.
 */
function inlineConfig(text: string): RuntimeConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError('The runtime configuration in the page is not valid JSON');
  }
  if (!isObject(value) || !isObject(value.remotes)) {
    throw new ConfigError('The runtime configuration in the page must be a JSON object with its remotes');
  }
  const config = value as unknown as RuntimeConfig;
  const refused = remoteOriginError(config);
  if (refused) throw refused;
  return config;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
