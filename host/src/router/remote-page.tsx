import { useLoaderData, useLocation } from 'react-router-dom';
import { useMarkContentShown } from '../navigation/first-content';
import type { RemoteRouteData } from './route-loader';

/** Renders the page a route's loader fetched from its remote. */
export function RemotePage() {
  const { Page } = useLoaderData() as RemoteRouteData;
  const { pathname } = useLocation();
  // Once the page has committed, links may start prefetching (navigation/first-content.ts).
  useMarkContentShown();
  // A new path is a new page: remote state never leaks from one gift to another.
  return <Page key={pathname} />;
}
