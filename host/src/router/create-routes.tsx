/** Turns the route table into the browser router's routes, grouped by layout. */
import type { RouteObject } from 'react-router-dom';
import { FatalError } from '../errors/fatal-error';
import { RouteError } from '../errors/route-error';
import { LAYOUTS } from '../layouts/layouts';
import { ContentShown } from '../navigation/first-content';
import { LinkIntent } from '../navigation/link-intent';
import { PageLoading } from '../navigation/page-loading';
import { NOT_FOUND_TITLE } from '../route-table/error-titles';
import type { RouteHandle } from '../route-table/route-handle';
import type { LayoutName, RouteTable } from '../route-table/route-table';
import { RemotePage } from './remote-page';
import { RootFrame } from './root-frame';
import { createNotFoundLoader, createRouteLoader, type LoaderServices } from './route-loader';

/** A route's error page is its content too: prefetches waiting for the first page go ahead. */
const routeError = (
  <>
    <RouteError />
    <ContentShown />
  </>
);

export function createRoutes(table: RouteTable, services: LoaderServices): RouteObject[] {
  const leaves = (layout: LayoutName): RouteObject[] =>
    table.routes
      .filter((route) => route.layout === layout)
      .map((route) => ({
        path: route.path,
        loader: createRouteLoader(route, services),
        Component: RemotePage,
        HydrateFallback: PageLoading,
        errorElement: routeError,
        handle: { title: route.title, remote: route.remote } satisfies RouteHandle,
      }));

  const notFound: RouteObject = {
    path: '*',
    loader: createNotFoundLoader(services),
    Component: RemotePage,
    HydrateFallback: PageLoading,
    errorElement: routeError,
    handle: { title: NOT_FOUND_TITLE } satisfies RouteHandle,
  };

  // Around every page: what the visitor's pointer, focus or press says they will open next.
  const Root = () => (
    <>
      <LinkIntent data={services} />
      <RootFrame />
    </>
  );

  return [
    {
      Component: Root,
      errorElement: <FatalError />,
      HydrateFallback: PageLoading,
      children: (Object.keys(LAYOUTS) as LayoutName[]).map((layout) => ({
        Component: LAYOUTS[layout],
        children: layout === 'default' ? [...leaves(layout), notFound] : leaves(layout),
      })),
    },
  ];
}
