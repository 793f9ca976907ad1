/**
 * Test helper (`shared/testing/query-client`): a fresh QueryClient for each rendered tree, with
 * the app's defaults except automatic retries, so a test decides every answer a page gets and
 * sees each failure as the visitor would after the last retry. The retry rule has tests of its own.
 */
import { notifyManager, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createQueryClient } from '../browser/api/query-client';

// Query tells React of a change on the next tick; tests look at the page right after the act()
// that changed it, as they may after a useState. Told at once, the change lands inside that act().
notifyManager.setScheduler((callback) => callback());

export function createTestQueryClient(): QueryClient {
  // No garbage collection either: no timer outlives a test.
  return createQueryClient({ queries: { retry: false, gcTime: Infinity }, mutations: { gcTime: Infinity } });
}

/** A fresh client per mount, or `client`, for a test that looks into the cache itself. */
export function TestQueryProvider({ client, children }: { client?: QueryClient; children: ReactNode }) {
  const [fresh] = useState(createTestQueryClient);
  return <QueryClientProvider client={client ?? fresh}>{children}</QueryClientProvider>;
}
