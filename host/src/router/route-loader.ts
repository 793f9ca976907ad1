/**
 * The loader every route shares: a pending full reload, the validators, then the page's code
 * (the reload guard before the in-layout error), its data and the visitor's builds at once.
 */
import type { ComponentType } from 'react';
import type { LoaderFunction } from 'react-router-dom';
import type { RemoteLoader } from '../federation/remote-loader';
import { isLoadFailure, RemoteLoadError } from '../federation/load-errors';
import type { VersionCheck } from '../version-check/version-check';
import { notFoundError, validationError, type RouteDefinition } from '../route-table/route-table';
import { prefetchRouteData, type RouteDataServices } from './route-data';

export interface LoaderServices extends RouteDataServices {
  remotes: Pick<RemoteLoader, 'load'>;
  versionCheck: Pick<VersionCheck, 'isStale' | 'checkNavigation'>;
  /**
   * Reloads to `path` unless the guard forbids it; true when a reload is under way.
   * `startedAt` is when the failed load began (see reload-guard.ts).
   */
  reloadOnce: (path: string, startedAt?: number) => boolean;
  fullLoad: (path: string) => void;
}

export interface RemoteRouteData {
  Page: ComponentType;
}

/** Keeps the navigation pending while the browser leaves the page. */
function pendingForever(): Promise<never> {
  return new Promise<never>(() => undefined);
}

function targetOf(request: Request): { pathname: string; path: string } {
  const url = new URL(request.url);
  return { pathname: url.pathname, path: `${url.pathname}${url.search}` };
}

export function createRouteLoader(route: RouteDefinition, services: LoaderServices): LoaderFunction {
  return async ({ request, params }): Promise<RemoteRouteData> => {
    const { pathname, path } = targetOf(request);
    if (services.versionCheck.isStale()) {
      services.fullLoad(path);
      return pendingForever();
    }
    const invalid = validationError(route, params, pathname);
    if (invalid) throw invalid;
    prefetchRouteData(route, params, services);
    const checking = services.versionCheck.checkNavigation();
    const startedAt = Date.now();
    const loading = services.remotes.load(route.remote, route.module).then(
      (Page) => ({ Page }),
      (error: unknown) => ({ error }),
    );
    const [loaded, stale] = await Promise.all([loading, checking]);
    // A navigation the visitor has already left must not pull them back with a reload.
    if (stale && !request.signal.aborted) {
      services.fullLoad(path);
      return pendingForever();
    }
    if ('Page' in loaded) return { Page: loaded.Page };
    const { error } = loaded;
    if (!isLoadFailure(error) || request.signal.aborted) throw error;
    if (services.reloadOnce(path, startedAt)) return pendingForever();
    throw new RemoteLoadError(route.remote, route.module, error);
  };
}

export function createNotFoundLoader(services: LoaderServices): LoaderFunction {
  return async ({ request }) => {
    const { pathname, path } = targetOf(request);
    if ((await services.versionCheck.checkNavigation()) && !request.signal.aborted) {
      services.fullLoad(path);
      return pendingForever();
    }
    throw notFoundError(pathname);
  };
}
