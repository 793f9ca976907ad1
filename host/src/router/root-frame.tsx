import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { documentTitle } from 'shared/site';
import { useAppServices } from '../app-services';
import { ErrorTitleContext } from '../errors/error-title';
import { NavigationProgress } from '../navigation/navigation-progress';
import { useRouteHandle } from '../route-table/route-handle';
import { ConsentBannerSlot } from '../third-party/analytics/consent-banner-slot';
import { routePatternOf } from '../third-party/analytics/page-views';
import { useThirdParties } from '../third-party/third-parties-context';

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

/**
 * One page view per route change, here in the host so no remote counts its own. The ref keeps
 * strict mode's second effect run from counting the same page twice.
 */
function usePageViews(): void {
  const { pageViews } = useThirdParties();
  const { routes } = useAppServices();
  const { pathname } = useLocation();
  const counted = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (counted.current === pathname) return;
    counted.current = pathname;
    pageViews.track(routePatternOf(routes, pathname));
  }, [pageViews, routes, pathname]);
}

/**
 * Around every layout: the progress bar, scroll restoration, the document title (the route's, or
 * that of the error shown instead of its page), focus, page views and the consent banner.
 */
export function RootFrame() {
  const routeTitle = useRouteHandle()?.title;
  const [errorTitle, setErrorTitle] = useState<string | undefined>();
  const title = errorTitle ?? routeTitle;
  // Before the page's own effects, which may refine it (useDocumentTitle): in one commit a
  // parent's effects run after its children's, so a page rendered in the same commit as its
  // route (its code loaded ahead, on intent) had its title replaced by the route's.
  useLayoutEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  useFocusMainOnNavigation();
  usePageViews();
  return (
    <ErrorTitleContext.Provider value={setErrorTitle}>
      <NavigationProgress />
      <Outlet />
      <ConsentBannerSlot />
      <ScrollRestoration />
    </ErrorTitleContext.Provider>
  );
}
