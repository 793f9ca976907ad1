/**
 * A prerendered page's data, beside its markup: a remote's query starts from it only when the
 * running build rendered it, so after a deploy the page asks as usual.
 */
import { hashKey, type DehydratedState, type QueryKey } from '@tanstack/react-query';
import { PRERENDER_STATE_ELEMENT_ID } from 'shared/page-data';

interface Prerendered {
  build: string | undefined;
  state: DehydratedState | undefined;
}

let read: Prerendered | undefined;

/** Only each query's hash and data are read; each query checks the data as it would an answer. */
function isDehydratedState(value: unknown): value is DehydratedState {
  if (typeof value !== 'object' || value === null) return false;
  const { queries } = value as { queries?: unknown };
  return (
    Array.isArray(queries) &&
    queries.every((query: unknown) => {
      if (typeof query !== 'object' || query === null) return false;
      const { queryHash, state } = query as { queryHash?: unknown; state?: unknown };
      return typeof queryHash === 'string' && typeof state === 'object' && state !== null;
    })
  );
}

/** A `<script type="application/json">` data block, never run. */
function readPage(doc: Document | undefined): Prerendered {
  const element = doc?.getElementById(PRERENDER_STATE_ELEMENT_ID);
  if (!element?.textContent) return { build: undefined, state: undefined };
  const unreadable = (reason: unknown): Prerendered => {
    console.warn('[prerender] the page data cannot be read; the page loads it instead', reason);
    return { build: undefined, state: undefined };
  };
  if (element.localName !== 'script' || element.getAttribute('type') !== 'application/json') {
    return unreadable(new Error(`#${PRERENDER_STATE_ELEMENT_ID} is not a JSON data block`));
  }
  let state: unknown;
  try {
    state = JSON.parse(element.textContent);
  } catch (error) {
    return unreadable(error);
  }
  if (!isDehydratedState(state)) return unreadable(new Error('the page data is not a query cache'));
  return { build: element.dataset.build, state };
}

export function prerenderedData(
  queryKey: QueryKey,
  buildId: string,
  // No document where pages are prerendered at build time.
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
): unknown {
  read ??= readPage(doc);
  if (read.build !== buildId) return undefined;
  const hash = hashKey(queryKey);
  return read.state?.queries.find((query) => query.queryHash === hash)?.state.data;
}

const taken = new Set<string>();

/**
 * The API's answer the page was rendered with, used once per page load by any build of the remote
 * (docs/decisions/0028-data-pages-rendered-by-the-host-server.md).
 */
export function serverData(
  queryKey: QueryKey,
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
): unknown {
  read ??= readPage(doc);
  const hash = hashKey(queryKey);
  if (taken.has(hash)) return undefined;
  const data = read.state?.queries.find((query) => query.queryHash === hash)?.state.data;
  if (data !== undefined) taken.add(hash);
  return data;
}

export function forgetPrerenderedData(): void {
  read = undefined;
  taken.clear();
}
