import { errorMessage } from 'shared/http-error';
import { RemoteOriginError } from 'shared/runtime-config-checks';
import { ErrorPage } from './error-page';

/** What a visitor is told of a remote URL the configuration allows no code from. */
function refusedAddresses(error: RemoteOriginError): string {
  const urls = error.urls.join(', ');
  return (
    `This site is set up to load part of its pages from an address it does not trust (${urls}), ` +
    "so it loaded nothing from there. Please let the site's team know."
  );
}

/**
 * Shown instead of the app when the runtime configuration is missing or invalid. A remote URL
 * outside the allowed remote origins is told in plain words naming the address; the console has
 * the technical message (bootstrap.tsx logs every configuration error).
 */
export function ConfigErrorScreen({ error }: { error: unknown }) {
  const message = error instanceof RemoteOriginError ? refusedAddresses(error) : errorMessage(error);
  return (
    <main data-layout="error">
      <ErrorPage statusCode={500} message={message} homeAsDocumentLink />
    </main>
  );
}
