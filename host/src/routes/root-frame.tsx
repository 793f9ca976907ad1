import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router-dom';
import { documentTitle } from 'shared/site';
import { NavigationProgress } from '../navigation/navigation-progress';
import type { RouteHandle } from './create-routes';

/**
 * After a client-side navigation, focus moves to the new page's main region, as a full page
 * load would reset it: keyboard and screen-reader users start at the new content, not on the
 * link they left.
 */
function useFocusMainOnNavigation(): void {
  const { pathname } = useLocation();
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
}

/** Around every layout: the progress bar, scroll restoration, the document title and focus. */
export function RootFrame() {
  const matches = useMatches();
  const title = (matches.at(-1)?.handle as RouteHandle | undefined)?.title;
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  useFocusMainOnNavigation();
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
