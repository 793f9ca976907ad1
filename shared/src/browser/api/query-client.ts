/**
 * The one QueryClient, a singleton: import it as `shared/browser/api/query-client`, never by a
 * relative path (docs/decisions/0012-data-loading.md).
 */
import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { retryDelay, shouldRetry } from '../../api/retry-rule';

export const QUERY_DEFAULTS = {
  queries: {
    retry: shouldRetry,
    retryDelay,
    // Offline, the request fails and the page offers "Try again".
    networkMode: 'always',
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  },
  mutations: {
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
