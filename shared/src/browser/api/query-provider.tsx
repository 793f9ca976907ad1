/**
 * Gives a remote's exposed page the page's one QueryClient. The host loads no data of its own
 * and provides none, so each exposed page wraps itself in this; a client provided above it (a
 * test's, or the host's should it ever provide one) is used as it is.
 */
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { queryClient } from 'shared/browser/api/query-client';

export function PageQueryProvider({ children }: { children: ReactNode }) {
  if (useContext(QueryClientContext)) return children;
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
