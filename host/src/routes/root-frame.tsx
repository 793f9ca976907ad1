import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useMatches } from 'react-router-dom';
import { documentTitle } from 'shared/site';
import { NavigationProgress } from '../navigation/navigation-progress';
import type { RouteHandle } from './create-routes';

/** Around every layout: the progress bar, scroll restoration and the document title. */
export function RootFrame() {
  const matches = useMatches();
  const title = (matches.at(-1)?.handle as RouteHandle | undefined)?.title;
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
