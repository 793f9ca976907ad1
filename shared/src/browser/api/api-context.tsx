/**
 * The API client the host provides to every remote page (with `apiBaseUrl` from its runtime
 * configuration). A federation singleton, so host and remotes share this one context.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from '../../api/client';

const ApiContext = createContext<ApiClient | null>(null);

export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi needs an ApiProvider above it (the host, or a standalone shell)');
  return client;
}
