/**
 * Reads the runtime configuration: the host's server writes it into the page, so a first load
 * makes no request for it; a page without it (the development server's, or `dist/` on a static
 * host) fetches `/config.json`.
 */
import { RUNTIME_CONFIG_ELEMENT_ID } from 'shared/page-data';

export const CONFIG_URL = '/config.json';

export interface ConfigRequest {
  response: Promise<Response>;
  /**
   * Written into the page by the host's server, which parsed it with the schema already
   * (runtime-config-from-env.ts): the app checks its remote origins, not its schema again.
   */
  inPage: boolean;
}

export function fetchRuntimeConfig(
  fetchImpl: typeof fetch = (input, init) => window.fetch(input, init),
  doc: Pick<Document, 'getElementById'> = document,
): ConfigRequest {
  const inline = doc.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.textContent;
  if (inline) {
    const response = new Response(inline, { status: 200, headers: { 'Content-Type': 'application/json' } });
    return { response: Promise.resolve(response), inPage: true };
  }
  return { response: fetchImpl(CONFIG_URL, { cache: 'no-store' }), inPage: false };
}
