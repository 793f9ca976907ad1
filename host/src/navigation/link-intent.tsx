/**
 * Intent preloading: pointing at or focusing a link starts the page's code, pressing it its data,
 * and the module runs ahead of the click. The host listens on the document: the remotes' links
 * count too.
 */
import { useEffect } from 'react';
import { useAppServices } from '../app-services';
import type { RemoteLoader } from '../federation/remote-loader';
import type { VersionCheck } from '../version-check/version-check';
import type { RouteTable } from '../route-table/route-table';
import { prefetchRouteData, type RouteDataServices } from '../router/route-data';

const INTENT_EVENTS = { pointerover: false, focusin: false, pointerdown: true, touchstart: true } as const;

type IdleWindow = Window & { requestIdleCallback?: (callback: () => void) => number };

function whenIdle(callback: () => void): void {
  const idle = (window as IdleWindow).requestIdleCallback;
  if (idle) idle(callback);
  else window.setTimeout(callback, 200);
}

/** The app's page a link leads to: a link of this origin, followed in this window. */
function linkedPath(target: EventTarget | null): string | undefined {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return undefined;
  if (link.hasAttribute('download') || (link.target && link.target !== '_self')) return undefined;
  return link.pathname;
}

export function watchLinkIntent(
  root: Document,
  table: RouteTable,
  remotes: Pick<RemoteLoader, 'prefetch' | 'warm'>,
  data: RouteDataServices,
  versionCheck: Pick<VersionCheck, 'prepareNavigation'>,
): () => void {
  const listeners = Object.entries(INTENT_EVENTS).map(([type, pressed]) => {
    const listener = (event: Event) => {
      const path = linkedPath(event.target);
      const match = path === undefined ? undefined : table.resolvePath(path);
      // An address no page has, or whose id the route's validator refuses, asks for nothing.
      if (!match || !('route' in match)) return;
      remotes.prefetch(match.route.remote, match.route.module);
      versionCheck.prepareNavigation();
      remotes.warm(match.route.remote, match.route.module, pressed ? undefined : whenIdle);
      if (pressed) prefetchRouteData(match.route, match.params, data, 'press');
    };
    root.addEventListener(type, listener, { passive: true, capture: true });
    return () => root.removeEventListener(type, listener, { capture: true });
  });
  return () => listeners.forEach((stop) => stop());
}

/** Watches the document's links while mounted (the router's root: create-routes.tsx). */
export function LinkIntent({ data }: { data: RouteDataServices }) {
  const { routes, remotes, versionCheck } = useAppServices();
  useEffect(
    () => watchLinkIntent(document, routes, remotes, data, versionCheck),
    [routes, remotes, data, versionCheck],
  );
  return null;
}
