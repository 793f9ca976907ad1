/**
 * What the browser parts share as `@tanstack/react-query`: the part of it their pages call, and
 * nothing else.
 *
 * A shared module is provided whole: webpack cannot know which exports another part, built
 * apart, will use, so every export of the package (infinite and suspense queries, hydration,
 * streamed queries, the query and mutation state hooks…) was in the host's main.js, every
 * page's first script, though no page calls them. `webpack.config.base.ts` provides this module
 * under the name `@tanstack/react-query` (every part imports the package as usual), lint keeps
 * the exports left out out of browser code (its list is read from this file), and
 * `tanstack-react-query.test.ts` checks that each export is the package's own. A page that needs
 * another export adds it here, the one list.
 */
// The import below is of the package itself: the build gives this module the package's code
// (SHARED_LIBRARY_LISTS in webpack.config.base.ts), not the shared module this module is.
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
