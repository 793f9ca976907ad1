/**
 * Intent preloading: a visitor about to follow a link to one of the app's pages says so first.
 * Pointing at the link or focusing it starts the page's code (the remote's manifest, entry, the
 * page's chunks and the copies of shared modules the page lacks, all at once:
 * federation/loading-plugin.ts); pressing it (pointerdown, touchstart), a moment before its
 * click, also starts the page's data (router/route-data.ts). Every link on the page counts, the
 * remotes' own among them (the gift links on /game), so the host listens on the document.
 * Once the page's files are downloaded, its module is also run ahead of the click (in an idle
 * moment, or at once on a press: remote-loader.ts `warm`), so the click only renders. While the
 * page asks for its builds on each navigation (version-check.ts), the intent asks too, so the
 * click finds the answer there.
 */
import { useEffect } from 'react';
import { useAppServices } from '../app-services';
import type { RemoteLoader } from '../federation/remote-loader';
import type { VersionCheck } from '../version-check/version-check';
import type { RouteTable } from '../route-table/route-table';
import { prefetchRouteData, type RouteDataServices } from '../router/route-data';

/** The events that say which link the visitor means, and whether they are pressing it. */
const INTENT_EVENTS = { pointerover: false, focusin: false, pointerdown: true, touchstart: true } as const;

type IdleWindow = Window & { requestIdleCallback?: (callback: () => void) => number };

/** Runs `callback` when the browser has a moment to spare. */
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

/** Listens on `root` until the returned function is called. */
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
