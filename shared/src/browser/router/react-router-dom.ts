/** The exports pages call, shared whole (docs/decisions/0001-shared-singletons-loaded-first.md). */
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
// eslint-disable-next-line no-restricted-imports -- react-router-dom's RouterProvider
export { RouterProvider } from 'react-router/dom';
