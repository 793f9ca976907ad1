/**
 * The data of a page the host's server renders with it (the registry's `serverData` routes: a
 * gift, a redeem session), read from the API per request on the visitor's behalf: their cookie
 * and their address go with it, so the answer, the API's limits and its analytics are theirs, as
 * if their browser had asked (docs/decisions/0028-data-pages-rendered-by-the-host-server.md).
 * The wait is bounded; a slow, failing or refusing API means the page is rendered in the
 * browser without its data, never an error.
 */
import type { IncomingMessage } from 'node:http';
import { serverLog } from 'server/log';
import { giftViewSchema, redeemViewSchema } from 'shared/api/contract';
import { apiQueryKeys } from 'shared/browser/api/query-keys';
import type { ServerDataQuery } from 'shared/remotes';
import type { RouteMatch } from '../src/route-table/route-table';
import type { RenderQuery } from 'shared/render-contract';
import type { DataPageOutcomeLabel } from './host-metrics';
import { sanitizeDataPageHtml } from './prerendered-html';
import type { PrerenderedMarkup, RemoteSnapshot } from './remote-snapshot';

/** Default `PAGE_DATA_TIMEOUT_MS`: longer than the API's answer on loopback, short next to a page's budget. */
export const DEFAULT_PAGE_DATA_TIMEOUT_MS = 400;

export type PageData =
  /** The API's answer, as the page's own query would have it; `setCookies` go to the visitor. */
  | { kind: 'found'; query: RenderQuery; setCookies: string[] }
  /** The API says there is no such gift or session: the page is a 404. */
  | { kind: 'not-found'; setCookies: string[] }
  /** Anything else (down, slow, 5xx, 429, an answer that is not the contract's): the browser asks itself. */
  | { kind: 'unavailable'; reason: string };

export interface PageDataOptions {
  /** The API's base URL as the host's server reaches it (`API_INTERNAL_URL`). */
  apiUrl: string;
  /** Longest wait for the API's answer (`PAGE_DATA_TIMEOUT_MS`). */
  timeoutMs: number;
  fetchImpl?: typeof fetch;
}

interface QuerySpec {
  path: (id: string) => string;
  queryKey: (id: string) => readonly unknown[];
  valid: (body: unknown) => boolean;
}

const QUERIES: Record<ServerDataQuery, QuerySpec> = {
  gift: {
    path: (id) => `/api/gifts/${encodeURIComponent(id)}`,
    queryKey: apiQueryKeys.gift,
    valid: (body) => giftViewSchema.safeParse(body).success,
  },
  redeem: {
    path: (id) => `/api/redeems/${encodeURIComponent(id)}`,
    queryKey: apiQueryKeys.redeem,
    valid: (body) => redeemViewSchema.safeParse(body).success,
  },
};

/**
 * The headers the visitor's browser would have sent the API that matter to its answer: their
 * cookie, and their address added to X-Forwarded-For as a proxy adds it (the API believes it only
 * from the addresses in its TRUST_PROXY).
 */
export function visitorHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const { cookie, 'user-agent': userAgent, 'accept-language': language } = req.headers;
  if (cookie) headers.Cookie = cookie;
  if (userAgent) headers['User-Agent'] = userAgent;
  if (language) headers['Accept-Language'] = language;
  const earlier = req.headers['x-forwarded-for'];
  const chain = [...(Array.isArray(earlier) ? earlier : earlier ? [earlier] : [])];
  const address = req.socket.remoteAddress;
  if (address) chain.push(address);
  if (chain.length > 0) headers['X-Forwarded-For'] = chain.join(', ');
  return headers;
}

export async function readPageData(
  query: ServerDataQuery,
  id: string,
  headers: Record<string, string>,
  { apiUrl, timeoutMs, fetchImpl = fetch }: PageDataOptions,
): Promise<PageData> {
  const spec = QUERIES[query];
  const url = `${apiUrl.replace(/\/+$/, '')}${spec.path(id)}`;
  let response: Response;
  let body: unknown;
  try {
    response = await fetchImpl(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    body = response.ok ? await response.json() : undefined;
  } catch (error) {
    const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
    const reason = timedOut ? `no answer within ${timeoutMs} ms` : String(error);
    return { kind: 'unavailable', reason };
  }
  const setCookies = response.headers.getSetCookie();
  if (response.status === 404) return { kind: 'not-found', setCookies };
  if (!response.ok) return { kind: 'unavailable', reason: `the API answered HTTP ${response.status}` };
  if (!spec.valid(body))
    return { kind: 'unavailable', reason: 'the API answered something that is not the contract’s' };
  return { kind: 'found', query: { queryKey: spec.queryKey(id), data: body }, setCookies };
}

/** A data page's answer, when the API gave what it needs. */
export type DataPageOutcome =
  /** Rendered with the visitor's data: the page goes in the HTML as a prerendered page does. */
  | { kind: 'rendered'; rendered: PrerenderedMarkup & { css: string }; setCookies: string[] }
  /** No such gift or session: a 404 page. */
  | { kind: 'not-found'; setCookies: string[] };

export interface DataPages {
  /**
   * The page of `match` rendered with the visitor's data, or its 404; undefined for a route
   * without `serverData`, a remote with no renderer, and an API that did not answer in time or as
   * it should (the page is then sent without its data, rendered in the browser).
   */
  read(
    req: IncomingMessage,
    match: RouteMatch,
    snapshot: (remote: string) => RemoteSnapshot | undefined,
  ): Promise<DataPageOutcome | undefined>;
}

export interface DataPagesOptions extends PageDataOptions {
  log?: (message: string) => void;
  /** Told how each page of a `serverData` route was answered, by its route pattern (host-metrics.ts). */
  onOutcome?: (route: string, outcome: DataPageOutcomeLabel) => void;
}

export function createDataPages({
  log = (message) => serverLog().warn(message),
  onOutcome = () => {},
  ...options
}: DataPagesOptions): DataPages {
  return {
    async read(req, { route, params }, snapshot) {
      const id = route.data && params[route.data.param];
      if (!route.serverData || id === undefined) return undefined;
      const renderer = snapshot(route.remote)?.renderer;
      if (!renderer) {
        onOutcome(route.path, 'no-renderer');
        return undefined;
      }
      const buildId = snapshot(route.remote)?.buildId ?? '';
      const data = await readPageData(route.serverData, id, visitorHeaders(req), options);
      if (data.kind === 'unavailable') {
        log(`${route.path} is rendered in the browser: ${data.reason}`);
        onOutcome(route.path, 'api-unavailable');
        return undefined;
      }
      if (data.kind === 'not-found') {
        onOutcome(route.path, 'not-found');
        return data;
      }
      const pathname = (req.url ?? '/').split('?')[0] ?? '/';
      try {
        const page = await renderer.render({ module: route.module, pathname, queries: [data.query] });
        const html = sanitizeDataPageHtml(page.html);
        onOutcome(route.path, 'rendered');
        return {
          kind: 'rendered',
          rendered: { buildId, html, state: page.state, css: renderer.css },
          setCookies: data.setCookies,
        };
      } catch (error) {
        log(`${route.path} is rendered in the browser: the ${route.remote} remote's render failed (${String(error)})`);
        onOutcome(route.path, 'render-failed');
        return undefined;
      }
    },
  };
}
