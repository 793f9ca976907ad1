import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useMatches } from 'react-router-dom';
import { NavigationProgress } from '../navigation/navigation-progress';
import type { RouteHandle } from './create-routes';

export const SITE_NAME = 'Gift Box';

/** Around every layout: the progress bar, scroll restoration and the document title. */
export function RootFrame() {
  const matches = useMatches();
  const title = (matches.at(-1)?.handle as RouteHandle | undefined)?.title;
  useEffect(() => {
    document.title = title && title !== SITE_NAME ? `${title} · ${SITE_NAME}` : SITE_NAME;
  }, [title]);
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
