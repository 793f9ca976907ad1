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

/** As a full load would: keyboard and screen-reader users start at the new content. */
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

/** Here in the host, so no remote counts its own; the ref stops strict mode counting twice. */
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

export function RootFrame() {
  const routeTitle = useRouteHandle()?.title;
  const [errorTitle, setErrorTitle] = useState<string | undefined>();
  const title = errorTitle ?? routeTitle;
  // A layout effect, before the page's own effects, which may refine it (useDocumentTitle).
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
