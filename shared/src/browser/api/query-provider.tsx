/** The page's one QueryClient for an exposed page: the host provides none; one above is kept. */
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { queryClient } from 'shared/browser/api/query-client';

export function PageQueryProvider({ children }: { children: ReactNode }) {
  if (useContext(QueryClientContext)) return children;
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
