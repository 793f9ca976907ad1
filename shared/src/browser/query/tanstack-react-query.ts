/** The exports pages call, shared whole (docs/decisions/0001-shared-singletons-loaded-first.md). */
// The package itself: the build gives this module its code.
export {
  QueryClient,
  QueryClientContext,
  QueryClientProvider,
  hashKey,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
