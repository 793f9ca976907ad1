/**
 * A page's data asked for ahead of the page: the host's route loader starts the page's query
 * (`gift-query.ts`, `redeem-query.ts`) together with the page's code, into the page's one
 * QueryClient. Each visit asks once: the loader asks when the navigation starts, and the page's
 * useQuery, mounting, finds the answer on its way or already there, and does not ask again
 * (`refetchOnMount: false` for that query's key). A prefetch that failed leaves the query without
 * data, so the page asks as it would have without it; a page no loader asks for (a remote's
 * standalone shell) asks when it mounts, as before (docs/decisions/0012-data-loading.md).
 */
import type { QueryClient, QueryExecuteOptions, QueryKey } from '@tanstack/react-query';

/** Starts the query with the client's defaults (the retry rule among them); never rejects. */
export function prefetchPageQuery<TData, TKey extends QueryKey>(
  client: QueryClient,
  options: QueryExecuteOptions<TData, Error, TData, TData, TKey>,
): Promise<void> {
  client.setQueryDefaults(options.queryKey, { refetchOnMount: false });
  return client.query(options).then(
    () => undefined,
    () => undefined,
  );
}
