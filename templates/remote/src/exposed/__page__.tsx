import { PageQueryProvider } from 'shared/browser/api/query-provider';

/**
 * The page the host shows at __path__. Grow it in feature folders (`src/features/…`), as the
 * other remotes do; this file stays the exposed surface only.
 */
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
