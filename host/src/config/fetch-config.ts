/**
 * Starts fetching `/config.json` from the entry chunk, before the shared modules have loaded.
 * It must import nothing shared: shared singletons are not available that early.
 */
export const CONFIG_URL = '/config.json';

export function fetchRuntimeConfig(
  fetchImpl: typeof fetch = (input, init) => window.fetch(input, init),
): Promise<Response> {
  return fetchImpl(CONFIG_URL, { cache: 'no-store' });
}
