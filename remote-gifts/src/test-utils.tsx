/**
 * Renders pages as the host does (a router, the API client in context, a query client: see
 * renderAt) with only the network stubbed: a real client whose `fetch` answers with real Responses.
 */
import type { ReactElement } from 'react';
import { ApiProvider } from 'shared/browser/api/api-context';
import { createApiClient } from 'shared/api/client';
import { reasonPhrase } from 'shared/http-error';
import { renderAt } from 'shared/testing/render-at';

export const API_BASE = 'http://api.test';

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' }, ...init });
}

/** The API's one error shape, with its status. */
export function errorResponse(statusCode: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(
    { statusCode, statusMessage: reasonPhrase(statusCode), message },
    { status: statusCode, headers: { 'Content-Type': 'application/json', ...headers } },
  );
}

/** What fetch does when the API is down. */
export function networkFailure(): Promise<Response> {
  return Promise.reject(new TypeError('Failed to fetch'));
}

export type Reply = () => Response | Promise<Response>;
export type FetchStub = jest.Mock<Promise<Response>, [RequestInfo | URL, RequestInit?]>;

/** Each request is answered by the next reply; a Response body can be read once, hence factories. */
export function stubFetch(...replies: Reply[]): FetchStub {
  const fetchStub: FetchStub = jest.fn();
  for (const reply of replies) fetchStub.mockImplementationOnce(async () => reply());
  fetchStub.mockRejectedValue(new Error('fetch called more often than the test expected'));
  return fetchStub;
}

/** "POST http://api.test/api/game/plays" for each request made, in order. */
export function requestsOf(fetchStub: FetchStub): string[] {
  return fetchStub.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
}

/** A reply the test settles itself, to look at the page while a request is in flight. */
export function deferredReply(): { reply: Reply; resolve: (response: Response) => void } {
  let resolve: (response: Response) => void = () => undefined;
  const pending = new Promise<Response>((settle) => {
    resolve = settle;
  });
  return { reply: () => pending, resolve };
}

export const VISITOR_GIFTS_URL = `${API_BASE}/api/visitor/gifts`;

/**
 * The visitor's gifts (GET /api/visitor/gifts), which the game page and a redeemed gift's page
 * ask for beside their own requests, are answered apart from `fetchStub`, which sees the rest:
 * by `visitorGifts` (each time), or as a visitor with no gifts.
 */
export function withVisitorGifts(
  fetchStub: FetchStub,
  visitorGifts: Reply = () => jsonResponse({ gifts: [] }),
): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === VISITOR_GIFTS_URL ? Promise.resolve(visitorGifts()) : fetchStub(input, init)) as typeof fetch;
}

export function renderWithApi(
  path: string,
  routes: Record<string, ReactElement>,
  fetchStub: FetchStub,
  { visitorGifts }: { visitorGifts?: Reply } = {},
) {
  const client = createApiClient({ baseUrl: API_BASE, fetch: withVisitorGifts(fetchStub, visitorGifts) });
  const withApi = Object.entries(routes).map(([routePath, element]) => [
    routePath,
    <ApiProvider client={client}>{element}</ApiProvider>,
  ]);
  return renderAt(path, Object.fromEntries(withApi));
}

export { GIFT_ID, REDEEM_ID, aGiftView as giftView } from 'shared/testing/api-fixtures';

/** The warnings a failed request logs are expected in these tests; keep them out of the output. */
export function silenceWarnings(): jest.SpyInstance {
  return jest.spyOn(console, 'warn').mockImplementation(() => undefined);
}
