/**
 * The redeem page under test, as the host renders it: inside the router (and a fresh query
 * client, see renderAt) and an ApiProvider holding a real API client, whose fetch is the only
 * thing stubbed (our network boundary).
 */
import { Component, StrictMode, type ReactNode } from 'react';
import { ApiProvider } from 'shared/browser/api/api-context';
import { createApiClient } from 'shared/api/client';
import { reasonPhrase, toHttpError, type HttpError } from 'shared/http-error';
import { TestQueryProvider, type createTestQueryClient } from 'shared/testing/query-client';
import { renderAt } from 'shared/testing/render-at';
import RedeemPage from './exposed/redeem-page';
import { REDEEM_ID } from './test-fixtures';

export const API_BASE = 'http://api.test';

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** An answer in the API's one error shape. */
export function errorResponse(statusCode: number, message: string, headers?: HeadersInit): Response {
  return jsonResponse(
    { statusCode, statusMessage: reasonPhrase(statusCode), message },
    { status: statusCode, headers },
  );
}

/** Finds the voucher code showing exactly `code`: its groups are separate elements, its text is the code. */
export const voucherCodeText = (code: string) => (_content: string, element: Element | null) =>
  element?.tagName === 'CODE' && element.textContent === code;

export const networkFailure = () => Promise.reject(new TypeError('Failed to fetch'));

type Reply = () => Response | Promise<Response>;
export type FetchStub = jest.Mock<Promise<Response>, [RequestInfo | URL, RequestInit?]>;

/**
 * A fetch that answers `"METHOD /path"` with that route's replies in turn (a Response body can
 * be read once, hence factories). Any other request fails the way a missing server would.
 */
export function stubApi(routes: Record<string, Reply[]>): FetchStub {
  const queues = new Map(Object.entries(routes).map(([route, replies]) => [route, [...replies]]));
  return jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const route = `${init?.method ?? 'GET'} ${url.pathname}`;
    const reply = queues.get(route)?.shift();
    if (!reply) throw new Error(`Unexpected request: ${route}`);
    return reply();
  });
}

/** The JSON bodies sent to `"METHOD /path"`, in order. */
export function sentBodies(fetchStub: FetchStub, route: string): unknown[] {
  return fetchStub.mock.calls
    .filter(([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}` === route)
    .map(([, init]) => JSON.parse(String(init?.body)));
}

/** Stands in for the host's route error element: shows what a page threw. */
class CaughtError extends Component<{ children: ReactNode }, { error: HttpError | undefined }> {
  override state = { error: undefined as HttpError | undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: toHttpError(error) };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" data-status={error.statusCode}>
        {error.statusCode}: {error.message}
      </div>
    );
  }
}

interface RenderOptions {
  /** Mounts the page twice, as React does in development. */
  strictMode?: boolean;
  /** A query client the test looks into; otherwise a fresh one. */
  queryClient?: ReturnType<typeof createTestQueryClient>;
}

export function renderRedeemPage(fetchStub: FetchStub, redeemId: string = REDEEM_ID, options: RenderOptions = {}) {
  const api = createApiClient({ baseUrl: API_BASE, fetch: fetchStub });
  const page = (
    <CaughtError>
      <RedeemPage />
    </CaughtError>
  );
  return renderAt(`/redeem/${redeemId}`, {
    '/redeem/:redeemId': (
      <ApiProvider client={api}>
        <TestQueryProvider client={options.queryClient}>
          {options.strictMode ? <StrictMode>{page}</StrictMode> : page}
        </TestQueryProvider>
      </ApiProvider>
    ),
    '/gifts/:giftId': <p>The gift page</p>,
    '/terms': <p>The terms page</p>,
  });
}
