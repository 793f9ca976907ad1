import { PageQueryProvider } from 'shared/browser/api/query-provider';

/** The page at __path__; it grows in `src/features/…`, this file stays the exposed surface. */
export default function __Page__() {
  return (
    <PageQueryProvider>
      <article>
        <h1>__Name__</h1>
        <p>The __name__ remote serves this page.</p>
      </article>
    </PageQueryProvider>
  );
}
