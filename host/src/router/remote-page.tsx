import { useLoaderData, useLocation } from 'react-router-dom';
import type { RemoteRouteData } from './route-loader';

/** Renders the page a route's loader fetched from its remote. */
export function RemotePage() {
  const { Page } = useLoaderData() as RemoteRouteData;
  const { pathname } = useLocation();
  // A new path is a new page: remote state never leaks from one gift to another.
  return <Page key={pathname} />;
}
