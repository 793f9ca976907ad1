/** Once per error, however often strict mode renders; a 4xx a page throws is no remote failing. */
import { useEffect, useRef } from 'react';
import { useLocation, useMatches } from 'react-router-dom';
import { RemoteLoadError } from '../federation/load-errors';
import type { RemoteRouteData } from '../router/route-loader';
import { useAppServices } from '../app-services';

export interface RouteErrorReport {
  error: unknown;
  statusCode: number;
  loadFailure: boolean;
  shown: boolean;
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
