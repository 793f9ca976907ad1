/**
 * A route's error, shown inside its layout so the site's navigation keeps working. A failed
 * download that the loader did not see (a chunk a page loads while rendering) goes through the
 * reload guard first; a remote that cannot be loaded is said in plain words, its technical
 * detail in the console and a collapsed "Details". A page the host's server prerendered, whose
 * remote then fails to load, keeps its text on screen, with a note and a retry. A remote's page
 * whose code threw on a build the visitor is no longer given is loaded anew on the one they are
 * (use-leave-throwing-build.ts). The tab's title says what happened.
 */
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useRouteError } from 'react-router-dom';
import { useAppServices } from '../app-services';
import { isCodeLoadFailure, RemoteLoadError } from '../federation/load-errors';
import { PageLoading } from '../navigation/page-loading';
import { KeptContent } from '../prerender/kept-content';
import { errorTitleFor } from '../route-table/error-titles';
import { useRouteHandle } from '../route-table/route-handle';
import { isExpectedError, logExpectedError } from './caught-errors';
import { describeError } from './describe-error';
import { ErrorPage } from './error-page';
import { useErrorTitle } from './error-title';
import { PartUnavailable } from './part-unavailable';
import { useErrorTelemetry } from './use-error-telemetry';
import { useLeaveThrowingBuild } from './use-leave-throwing-build';

export function RouteError() {
  const error = useRouteError();
  const { remotes, reloadOnce, prerendered } = useAppServices();
  const navigate = useNavigate();
  const location = useLocation();
  const { pathname, search } = location;
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
  // A failure that is no download's: the remote's code threw, as its module ran or as its page rendered.
  const leaving = useLeaveThrowingBuild(error, remote, !loadFailure && statusCode >= 500);
  useEffect(() => {
    // A 4xx is an expected outcome (a wrong link): one line. A failure gets its stack.
    if (isExpectedError(error)) logExpectedError(error);
    else if (statusCode >= 500) console.error(error);
  }, [error, statusCode]);
  useErrorTitle(errorTitleFor(statusCode, loadFailure));
  useErrorTelemetry({ error, statusCode, loadFailure, shown: !reloading && !leaving, remote });

  if (reloading || leaving) return <PageLoading />;

  // The retry loads the same address again, in place of this history entry, where the page
  // was. Not a revalidation: the router clears a route's error only once React has drawn the
  // revalidation loading, and a retry whose page is at hand (cached code, a quick answer) ends
  // before React draws, so the error stayed. A new location always clears it.
  const retry =
    statusCode >= 500 && remote
      ? () => {
          if (loadFailure) remotes.reset(remote);
          void navigate(location, { replace: true, state: location.state, preventScrollReset: true });
        }
      : undefined;
  if (loadFailure && prerendered?.pathname === pathname) {
    return <KeptPage content={prerendered.content} onRetry={retry} />;
  }
  if (loadFailure) return <PartUnavailable details={message} onRetry={retry} />;
  return <ErrorPage statusCode={statusCode} message={message} onRetry={retry} />;
}

/** The prerendered page as the host's server sent it (markup it sanitised), read-only. */
function KeptPage({ content, onRetry }: { content: DocumentFragment; onRetry?: () => void }) {
  return (
    <>
      <div className="p-kept-note" role="status">
        <p>Part of this page didn’t load, so it may not be up to date.</p>
        {onRetry && (
          <button type="button" className="p-button" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
      <KeptContent className="p-kept-page" content={content} />
    </>
  );
}
