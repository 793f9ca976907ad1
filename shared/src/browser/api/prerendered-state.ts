/**
 * A prerendered page's data. The host's server puts, beside the page's markup, the query cache
 * that markup was rendered from, and the build of the remote that rendered it (`shared/page-data`).
 * A remote's query reads its first data from there, so its first render shows the same text at
 * once without asking for it again, but only when the remote running is that same build: after
 * a deploy, the page asks as usual.
 */
import { hashKey, type DehydratedState, type QueryKey } from '@tanstack/react-query';
import { PRERENDER_STATE_ELEMENT_ID } from 'shared/page-data';

interface Prerendered {
  build: string | undefined;
  state: DehydratedState | undefined;
}

let read: Prerendered | undefined;

function readPage(doc: Document | undefined): Prerendered {
  const element = doc?.getElementById(PRERENDER_STATE_ELEMENT_ID);
  if (!element?.textContent) return { build: undefined, state: undefined };
  try {
    return { build: element.dataset.build, state: JSON.parse(element.textContent) as DehydratedState };
  } catch (error) {
    console.warn('[prerender] the page data cannot be read; the page loads it instead', error);
    return { build: undefined, state: undefined };
  }
}

/** The data the page was prerendered with for `queryKey`, when `buildId` (the caller's own build) rendered it. */
export function prerenderedData(
  queryKey: QueryKey,
  buildId: string,
  // No document where the pages are prerendered (Node, at build time).
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
): unknown {
  read ??= readPage(doc);
  if (read.build !== buildId) return undefined;
  const hash = hashKey(queryKey);
  return read.state?.queries.find((query) => query.queryHash === hash)?.state.data;
}

/** Tests: forget the page read before. */
export function forgetPrerenderedData(): void {
  read = undefined;
}
