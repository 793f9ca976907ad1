/**
 * Whether the visitor brought this document back from history (Back, Forward): from the
 * browser's HTTP cache, which a history navigation reuses without asking the server (the
 * navigation's type is `back_forward`), or from its back/forward cache (`pageshow` with
 * `persisted`). Such a document was not produced by the version check's own full load, so the
 * guard against loading anew twice for the same change (session-records.ts) does not hold it.
 * The listener is in the first script: a restore from the back/forward cache leaves no other trace.
 */
export function watchHistoryRestores(target: Window): () => boolean {
  let persisted = false;
  target.addEventListener('pageshow', (event) => {
    if (event.persisted) persisted = true;
  });
  return () => {
    if (persisted) return true;
    const [entry] = target.performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return entry?.type === 'back_forward';
  };
}
