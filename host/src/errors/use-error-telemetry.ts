/**
 * What a route's error tells telemetry, once per error however often its page renders (and
 * strict mode runs effects twice): the error page once it is on screen (not while the reload
 * guard reloads instead), a chunk that failed to download while the page rendered, and a
 * remote's page that threw while rendering (its loader had given the page: the error is the
 * page's own). A 4xx a page throws (a gift that does not exist) is an expected outcome, not the
 * remote failing.
 */
import { useEffect, useRef } from 'react';
import { useLocation, useMatches } from 'react-router-dom';
import { RemoteLoadError } from '../federation/load-errors';
import type { RemoteRouteData } from '../router/route-loader';
import { useAppServices } from '../app-services';

export interface RouteErrorReport {
  error: unknown;
  statusCode: number;
  /** A download of federated code failed (the loader's RemoteLoadError, or a chunk while rendering). */
  loadFailure: boolean;
  /** The error page is on screen. */
  shown: boolean;
  /** The route's remote; none for a path no route matches. */
  remote: string | undefined;
}

export function useErrorTelemetry({ error, statusCode, loadFailure, shown, remote }: RouteErrorReport): void {
  const { telemetry } = useAppServices();
  const { pathname } = useLocation();
  const pageRendered = (useMatches().at(-1)?.data as Partial<RemoteRouteData> | undefined)?.Page !== undefined;
  const reported = useRef<{ error: unknown; shown: boolean } | undefined>(undefined);

  useEffect(() => {
    const previous = reported.current?.error === error ? reported.current : undefined;
    reported.current = { error, shown: shown || Boolean(previous?.shown) };
    if (!telemetry) return;
    if (!previous) {
      if (loadFailure && !(error instanceof RemoteLoadError)) telemetry.chunkFailed(error, remote);
      else if (!loadFailure && pageRendered && statusCode >= 500 && remote) telemetry.renderFailed(remote);
    }
    if (shown && !previous?.shown) telemetry.errorPage(pathname, statusCode, remote);
  }, [telemetry, error, statusCode, loadFailure, shown, remote, pageRendered, pathname]);
}
