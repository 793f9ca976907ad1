import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';
import { describeError } from './describe-error';
import { documentTitle } from 'shared/site';
import { errorTitleFor } from '../route-table/error-titles';
import { ErrorPage } from './error-page';
import { useErrorTelemetry } from './use-error-telemetry';

/** An error outside any route's page (a layout itself failed): the whole screen is the error. */
export function FatalError() {
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  const { statusCode, message } = describeError(error);
  useErrorTelemetry({ error, statusCode, loadFailure: false, shown: true, remote: undefined });
  useEffect(() => {
    document.title = documentTitle(errorTitleFor(statusCode, false));
  }, [statusCode]);
  return (
    <main data-layout="error">
      <ErrorPage statusCode={statusCode} message={message} homeAsDocumentLink />
    </main>
  );
}
