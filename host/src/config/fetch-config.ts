/**
 * Reads the runtime configuration: the host's server writes it into the page, so a first load
 * makes no request for it; a page without it (the development server's) fetches `/config.json`.
 */
import { RUNTIME_CONFIG_ELEMENT_ID } from 'shared/page-data';

export const CONFIG_URL = '/config.json';

export function fetchRuntimeConfig(
  fetchImpl: typeof fetch = (input, init) => window.fetch(input, init),
  doc: Pick<Document, 'getElementById'> = document,
): Promise<Response> {
  const inline = doc.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.textContent;
  if (inline) {
    return Promise.resolve(new Response(inline, { status: 200, headers: { 'Content-Type': 'application/json' } }));
  }
  return fetchImpl(CONFIG_URL, { cache: 'no-store' });
}
