/**
 * A route's error, shown inside its layout so the site's navigation keeps working. A failed
 * download that the loader did not see (a chunk a page loads while rendering) goes through the
 * reload guard first.
 */
import { useEffect, useState } from 'react';
import { useLocation, useRevalidator, useRouteError } from 'react-router-dom';
import { useAppServices } from '../app-services';
import { isCodeLoadFailure, RemoteLoadError } from '../federation/load-errors';
import { PageLoading } from '../navigation/page-loading';
import { useRouteHandle } from '../route-table/route-handle';
import { describeError } from './describe-error';
import { ErrorPage } from './error-page';

export function RouteError() {
  const error = useRouteError();
  const { remotes, reloadOnce } = useAppServices();
  const revalidator = useRevalidator();
  const { pathname, search } = useLocation();
  const remote = useRouteHandle()?.remote;
  const loadFailure = error instanceof RemoteLoadError || isCodeLoadFailure(error);
  const needsGuard = loadFailure && !(error instanceof RemoteLoadError);
  const [reloading, setReloading] = useState(needsGuard);

  useEffect(() => {
    // Reloading is a side effect that must happen once after commit, never during render; its
    // answer (reload or show the error) is only known afterwards.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (needsGuard) setReloading(reloadOnce(`${pathname}${search}`));
  }, [needsGuard, pathname, search, reloadOnce]);

  const { statusCode, message } = describeError(error);
  useEffect(() => {
    // A 4xx is an expected outcome (a wrong link); only failures are worth a console error.
    if (statusCode >= 500) console.error(error);
  }, [error, statusCode]);

  if (reloading) return <PageLoading />;

  const retry =
    statusCode >= 500 && remote
      ? () => {
          if (loadFailure) remotes.reset(remote);
          void revalidator.revalidate();
        }
      : undefined;
  return <ErrorPage statusCode={statusCode} message={message} onRetry={retry} />;
}
