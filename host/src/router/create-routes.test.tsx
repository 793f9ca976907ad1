import { useQuery, type QueryClient, type QueryState } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router-dom';
import { createApiClient, type ApiClient } from 'shared/api/client';
import { createRequestActivity } from 'shared/browser/api/activity';
import { giftQueryOptions } from 'shared/browser/api/gift-query';
import { apiQueryKeys } from 'shared/browser/api/query-keys';
import { GIFT_ID, REDEEM_ID, aGiftView } from 'shared/testing/api-fixtures';
import { createTestQueryClient } from 'shared/testing/query-client';
import { AppServicesContext, type AppServices } from '../app-services';
import { RouteTable } from '../route-table/route-table';
import { createContentSignal, FirstContentContext, type ContentSignal } from '../navigation/first-content';
import { pageNamed, settle, versionCheckStub, withThirdParties } from '../test-utils';
import { createRoutes } from './create-routes';

const GIFT_URL = `http://api.test/api/gifts/${GIFT_ID}`;

const gift = aGiftView();

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface RouteOptions {
  load?: () => Promise<ComponentType>;
  api?: ApiClient;
  queryClient?: QueryClient;
  firstContent?: ContentSignal;
}

/** The host's real routes, with a remote the test controls and the services the loaders get. */
function renderRoutes(path: string, options: RouteOptions = {}) {
  const load = jest.fn(options.load ?? (async () => pageNamed('Remote page')));
  const services = {
    routes: RouteTable.registry(),
    remotes: { load, prefetch: jest.fn(), warm: jest.fn(), reset: jest.fn(), buildOf: () => undefined },
    versionCheck: versionCheckStub(),
    fullLoad: jest.fn(),
    reloadOnce: () => false,
    apiActivity: createRequestActivity(),
  } satisfies AppServices;
  const routes = createRoutes(services.routes, {
    ...services,
    fullLoad: jest.fn(),
    api: options.api,
    queryClient: options.queryClient,
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <FirstContentContext.Provider value={options.firstContent ?? createContentSignal()}>
      <AppServicesContext.Provider value={services}>
        <RouterProvider router={router} />
      </AppServicesContext.Provider>
    </FirstContentContext.Provider>,
    { wrapper: withThirdParties() },
  );
  /** Does `interaction`, then waits until the router has loaded the page (or its error) and React has rendered it. */
  const settled = (interaction?: () => Promise<unknown>) => settle(router, interaction);
  return { load, settled };
}

afterEach(() => jest.restoreAllMocks());

function isShown(signal: ContentSignal): () => boolean {
  let shown = false;
  void signal.shown.then(() => {
    shown = true;
  });
  return () => shown;
}

describe('the first content', () => {
  it("is marked once the route's page has rendered, not while its remote loads", async () => {
    const firstContent = createContentSignal();
    const shown = isShown(firstContent);
    const page = deferred<ComponentType>();
    const { settled } = renderRoutes('/about', { load: () => page.promise, firstContent });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shown()).toBe(false);

    await settled(async () => page.resolve(pageNamed('About us')));
    expect(screen.getByRole('heading', { name: 'About us' })).toBeInTheDocument();
    expect(shown()).toBe(true);
  });

  it.each(['/no-such-page', '/gifts/not-an-id'])(
    'is marked by the error page of %s, so prefetches never wait forever',
    async (path) => {
      const firstContent = createContentSignal();
      const shown = isShown(firstContent);
      await renderRoutes(path, { firstContent }).settled();
      expect(screen.getByText('404')).toBeInTheDocument();
      expect(shown()).toBe(true);
    },
  );
});

describe("a page's data, requested with its code", () => {
  /** The gift page as remote-gifts writes it: its query from `shared/browser/api/gift-query`. */
  function giftPage(api: ApiClient, queryClient: QueryClient, renders: string[]): ComponentType {
    return function GiftPage() {
      const { giftId = '' } = useParams();
      const { data, isError } = useQuery(giftQueryOptions(api, giftId), queryClient);
      renders.push(data ? 'gift' : isError ? 'error' : 'loading');
      return <h1>{data ? data.prize.name : isError ? 'Your gift didn’t load' : 'Loading your gift…'}</h1>;
    };
  }

  function setUp(...replies: (() => Response | Promise<Response>)[]) {
    const firstRequest = deferred<void>();
    const fetchStub = jest.fn<Promise<Response>, [RequestInfo | URL, RequestInit?]>();
    for (const reply of replies) fetchStub.mockImplementationOnce(async () => reply());
    fetchStub.mockRejectedValue(new Error('asked the API more often than the test expected'));
    const api = createApiClient({
      baseUrl: 'http://api.test',
      fetch: (...args) => {
        firstRequest.resolve();
        return fetchStub(...args);
      },
    });
    const queryClient = createTestQueryClient();
    const renders: string[] = [];
    const page = deferred<ComponentType>();
    page.promise.catch(() => undefined);
    const requests = () => fetchStub.mock.calls.map(([url]) => String(url));
    /** Resolves once the gift's query is in a state that meets `done` (at once if it is now). */
    const giftQuery = (done: (state: QueryState) => boolean) =>
      new Promise<void>((resolve) => {
        const isDone = () => {
          const state = queryClient.getQueryState(apiQueryKeys.gift(GIFT_ID));
          return state !== undefined && done(state);
        };
        if (isDone()) return resolve();
        const unsubscribe = queryClient.getQueryCache().subscribe(() => {
          if (!isDone()) return;
          unsubscribe();
          resolve();
        });
      });
    return {
      api,
      queryClient,
      renders,
      page,
      requests,
      firstRequest: firstRequest.promise,
      giftQuery,
      Page: giftPage(api, queryClient, renders),
    };
  }

  // The test waits on the API's answers and the router, inside act, never on a clock: once act
  // has returned, React has rendered what they changed.
  const succeeded = (state: QueryState) => state.status === 'success';

  it('asks for the gift while the page’s code loads, and the page uses that one request', async () => {
    const answer = deferred<Response>();
    const { api, queryClient, renders, page, requests, firstRequest, giftQuery, Page } = setUp(() => answer.promise);
    const { settled } = renderRoutes(`/gifts/${GIFT_ID}`, { load: () => page.promise, api, queryClient });

    await act(() => firstRequest);
    expect(requests()).toEqual([GIFT_URL]);
    expect(renders).toEqual([]);

    await settled(async () => page.resolve(Page));
    expect(screen.getByRole('heading', { name: 'Loading your gift…' })).toBeInTheDocument();
    await act(async () => {
      answer.resolve(json(gift));
      await giftQuery(succeeded);
    });
    expect(screen.getByRole('heading', { name: 'Cinema ticket' })).toBeInTheDocument();
    expect(requests()).toEqual([GIFT_URL]);
  });

  it('does not ask again for a gift that arrived before the page’s code', async () => {
    const { api, queryClient, renders, page, requests, giftQuery, Page } = setUp(() => json(gift));
    const { settled } = renderRoutes(`/gifts/${GIFT_ID}`, { load: () => page.promise, api, queryClient });
    await act(() => giftQuery(succeeded));
    expect(queryClient.getQueryData(apiQueryKeys.gift(GIFT_ID))).toEqual(gift);

    await settled(async () => page.resolve(Page));
    expect(screen.getByRole('heading', { name: 'Cinema ticket' })).toBeInTheDocument();
    expect(renders[0]).toBe('gift');
    expect(requests()).toEqual([GIFT_URL]);
  });

  it('changes nothing when that request fails: the page asks itself and shows what it gets', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const again = deferred<Response>();
    const { api, queryClient, page, requests, giftQuery, Page } = setUp(
      () => json({ statusCode: 503, statusMessage: 'Service Unavailable', message: 'Down' }, 503),
      () => again.promise,
    );
    const { settled } = renderRoutes(`/gifts/${GIFT_ID}`, { load: () => page.promise, api, queryClient });
    await act(() => giftQuery((state) => state.status === 'error'));

    await settled(async () => page.resolve(Page));
    // The page asks again as it mounts; its answer arrives after, as over a network.
    await act(async () => {
      again.resolve(json(gift));
      await giftQuery(succeeded);
    });
    expect(screen.getByRole('heading', { name: 'Cinema ticket' })).toBeInTheDocument();
    expect(requests()).toEqual([GIFT_URL, GIFT_URL]);
    expect(screen.queryByText('503')).toBeNull();
  });

  it('never asks the API about a malformed id: the validator answers first', async () => {
    const { api, queryClient, requests, page } = setUp();
    const { load, settled } = renderRoutes('/gifts/not-an-id', { load: () => page.promise, api, queryClient });
    await settled();
    expect(screen.getByText('Page Not Found: /gifts/not-an-id')).toBeInTheDocument();
    expect(requests()).toEqual([]);
    expect(load).not.toHaveBeenCalled();
  });

  it('asks for the redeem session while the redeem page’s code loads', async () => {
    const { api, queryClient, requests, page, firstRequest } = setUp(() => new Promise<Response>(() => undefined));
    renderRoutes(`/redeem/${REDEEM_ID}`, { load: () => page.promise, api, queryClient });
    await act(() => firstRequest);
    expect(requests()).toEqual([`http://api.test/api/redeems/${REDEEM_ID}`]);
  });

  it('asks for nothing on a page without data', async () => {
    const { api, queryClient, requests } = setUp();
    await renderRoutes('/game', { api, queryClient }).settled();
    expect(screen.getByRole('heading', { name: 'Remote page' })).toBeInTheDocument();
    expect(requests()).toEqual([]);
  });
});
