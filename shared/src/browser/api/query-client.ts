/**
 * The browser page's one QueryClient, and the defaults every remote's data loading follows.
 * This module is a federation singleton (as every browser subpath of `shared` is), so whichever
 * part loads it first creates `queryClient`, and every remote page uses that client and its
 * cache (docs/decisions/0012-data-loading.md). Import it as `shared/browser/api/query-client`, never by
 * a relative path, or a bundle gets a client of its own.
 */
import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { retryDelay, shouldRetry } from '../../api/retry-rule';

export const QUERY_DEFAULTS = {
  queries: {
    retry: shouldRetry,
    retryDelay,
    // Sent whatever navigator.onLine says: offline, the request fails and the page says so
    // with "Try again", rather than waiting silently for a connection.
    networkMode: 'always',
    // A page asks when it mounts and on "Try again", not behind the visitor's back.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  },
  mutations: {
    // A POST goes once per click; sending it again is the visitor's "Try again".
    retry: false,
    networkMode: 'always',
  },
} as const satisfies DefaultOptions;

export function createQueryClient(overrides: DefaultOptions = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { ...QUERY_DEFAULTS.queries, ...overrides.queries },
      mutations: { ...QUERY_DEFAULTS.mutations, ...overrides.mutations },
    },
  });
}

export const queryClient = createQueryClient();
