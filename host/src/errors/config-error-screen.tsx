import { errorMessage } from 'shared/http-error';
import { ErrorPage } from './error-page';

/** Shown instead of the app when the runtime configuration is missing or invalid. */
export function ConfigErrorScreen({ error }: { error: unknown }) {
  return (
    <main data-layout="error">
      <ErrorPage statusCode={500} message={errorMessage(error)} homeAsDocumentLink />
    </main>
  );
}
