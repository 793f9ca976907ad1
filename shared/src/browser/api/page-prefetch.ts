/**
 * A page's data asked for with its code by the host's route loader; the page's useQuery then finds
 * it and does not ask again (docs/decisions/0012-data-loading.md).
 */
import type { QueryClient, QueryExecuteOptions, QueryKey } from '@tanstack/react-query';

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
