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

/**
 * The shape of TanStack's dehydrated state that is read here: each query's hash and its data.
 * Whatever else is there is not read; the data itself each query checks as it would an answer.
 */
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

/**
 * The page data, read as data: the element is a `<script type="application/json">` data block
 * (never run), its text parsed as JSON and its shape checked. Anything else is not used.
 */
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

/** The API answers already handed to a query (`serverData`): each is used once. */
const taken = new Set<string>();

/**
 * The API's answer for `queryKey` that the host's server rendered the page with (a gift, a redeem
 * session: docs/decisions/0028-data-pages-rendered-by-the-host-server.md), once per page load: a
 * later visit of the same page in this document asks the API as usual. Unlike a prerendered page's
 * text, it is the API's, not a build's, so any build of the remote may use it.
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

/** Tests: forget the page read before. */
export function forgetPrerenderedData(): void {
  read = undefined;
  taken.clear();
}
