/**
 * What the browser parts share as `react-router-dom`: react-router's client API, without its
 * server, framework-mode and unstable exports (sessions, cookies, request handlers, static and
 * server routers, React Server Components, `UNSAFE_` and `unstable_` internals).
 *
 * A shared module is provided whole: webpack cannot know which exports another part, built
 * apart, will use. Shared as the package itself, react-router-dom puts some 66 kB (gzip) into
 * the host's main.js; through this list, 37 kB. `webpack.config.base.ts` provides this module
 * under the name `react-router-dom` (so every part imports `react-router-dom` as usual),
 * `react-router-dom.test.ts` checks the list against the installed package, and lint keeps the
 * exports left out, and `react-router` itself, out of browser code.
 */
// eslint-disable-next-line no-restricted-imports -- the one module that reads react-router itself
export {
  Await,
  BrowserRouter,
  Form,
  HashRouter,
  IDLE_BLOCKER,
  IDLE_FETCHER,
  IDLE_NAVIGATION,
  Link,
  MemoryRouter,
  NavLink,
  Navigate,
  NavigationType,
  Outlet,
  Route,
  Router,
  Routes,
  ScrollRestoration,
  createBrowserRouter,
  createHashRouter,
  createMemoryRouter,
  createPath,
  createRoutesFromChildren,
  createRoutesFromElements,
  createSearchParams,
  data,
  generatePath,
  href,
  isRouteErrorResponse,
  matchPath,
  matchRoutes,
  parsePath,
  redirect,
  redirectDocument,
  renderMatches,
  replace,
  resolvePath,
  useActionData,
  useAsyncError,
  useAsyncValue,
  useBeforeUnload,
  useBlocker,
  useFetcher,
  useFetchers,
  useFormAction,
  useHref,
  useInRouterContext,
  useLinkClickHandler,
  useLoaderData,
  useLocation,
  useMatch,
  useMatches,
  useNavigate,
  useNavigation,
  useNavigationType,
  useOutlet,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRevalidator,
  useRouteError,
  useRouteLoaderData,
  useRoutes,
  useSearchParams,
  useSubmit,
  useViewTransitionState,
} from 'react-router';
// react-router-dom's own RouterProvider: react-router's, with react-dom's flushSync.
// eslint-disable-next-line no-restricted-imports -- as above
export { RouterProvider } from 'react-router/dom';
