import { useLoaderData, useLocation } from 'react-router-dom';
import { RemotePart } from '../layouts/remote-part';
import { useMarkContentShown } from '../navigation/first-content';
import { useRouteHandle } from '../route-table/route-handle';
import type { RemoteRouteData } from './route-loader';

/** Renders the page a route's loader fetched from its remote, marked as that remote's part of the page. */
export function RemotePage() {
  const { Page } = useLoaderData() as RemoteRouteData;
  const { pathname } = useLocation();
  const remote = useRouteHandle()?.remote;
  // Once the page has committed, links may start prefetching (navigation/first-content.ts).
  useMarkContentShown();
  // A new path is a new page: remote state never leaks from one gift to another.
  return (
    <RemotePart remote={remote}>
      <Page key={pathname} />
    </RemotePart>
  );
}
