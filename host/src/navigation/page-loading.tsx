import { ProgressBar } from './navigation-progress';

/** What a route shows while its remote page loads for the first time. */
export function PageLoading() {
  return (
    <div className="p-page-loading" aria-busy="true">
      <ProgressBar />
      <span className="p-visually-hidden">Loading…</span>
    </div>
  );
}
