/** Back or Forward brought this document (HTTP cache or bfcache). */
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
