/**
 * What the browser parts share as `react-router-dom`: the part of react-router's client API that
 * their pages call, and nothing else.
 *
 * A shared module is provided whole: webpack cannot know which exports another part, built
 * apart, will use, so every export listed here is in the host's main.js, every page's first
 * script, whether any page calls it or not. Shared as the package itself, react-router-dom put
 * some 66 kB (gzip) there; as react-router's whole client API, 33 kB; as this list, 30 kB.
 * `webpack.config.base.ts` provides this module under the name `react-router-dom` (so every part
 * imports `react-router-dom` as usual), lint keeps the exports left out out of browser code (its
 * list is read from this file), and `react-router-dom.test.ts` checks that each export is
 * react-router-dom's own. A page that needs another export adds it here, the one list.
 */
// eslint-disable-next-line no-restricted-imports -- the one module that reads react-router itself
export {
  BrowserRouter,
  Link,
  NavLink,
  Outlet,
  Route,
  Routes,
  ScrollRestoration,
  createBrowserRouter,
  isRouteErrorResponse,
  matchRoutes,
  useLoaderData,
  useLocation,
  useMatches,
  useNavigate,
  useNavigation,
  useParams,
  useRevalidator,
  useRouteError,
} from 'react-router';
// react-router-dom's own RouterProvider: react-router's, with react-dom's flushSync.
// eslint-disable-next-line no-restricted-imports -- as above
export { RouterProvider } from 'react-router/dom';
