import { useQuery, type QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router-dom';
import { createApiClient, type ApiClient } from 'shared/api/client';
import type { GiftView } from 'shared/api/contract';
import { createRequestActivity } from 'shared/browser/api/activity';
import { giftQueryOptions } from 'shared/browser/api/gift-query';
import { apiQueryKeys } from 'shared/browser/api/query-keys';
import { createTestQueryClient } from 'shared/testing/query-client';
import { AppServicesContext, type AppServices } from '../app-services';
import { createContentSignal, FirstContentContext, type ContentSignal } from '../navigation/first-content';
import { pageNamed, withThirdParties } from '../test-utils';
import { createRoutes } from './create-routes';

const GIFT_ID = 'Zx9_-aBcDeFgHiJkLmNoPqRs';
const REDEEM_ID = 'Rd3_-eEmMeNoWpLeAsE12345';
const GIFT_URL = `http://api.test/api/gifts/${GIFT_ID}`;

const gift: GiftView = {
  giftId: GIFT_ID,
  prize: {
    id: 'cinema',
    name: 'Cinema ticket',
    description: 'One seat.',
    value: { label: 'One seat' },
    icon: 'mdi:movie-open',
  },
  status: 'available',
  createdAt: '2026-11-22T12:00:00.000Z',
  expiresAt: '2026-12-22T12:00:00.000Z',
  redeemedAt: null,
};

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
    remotes: { load, prefetch: jest.fn(), reset: jest.fn() },
    versionCheck: { start: jest.fn(), stop: jest.fn(), poll: jest.fn(), trackRemote: jest.fn(), isStale: () => false },
    reloadOnce: () => false,
    apiActivity: createRequestActivity(),
  } satisfies AppServices;
  const routes = createRoutes({ ...services, fullLoad: jest.fn(), api: options.api, queryClient: options.queryClient });
  render(
    <FirstContentContext.Provider value={options.firstContent ?? createContentSignal()}>
      <AppServicesContext.Provider value={services}>
        <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />
      </AppServicesContext.Provider>
    </FirstContentContext.Provider>,
    { wrapper: withThirdParties() },
  );
  return { load };
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
    renderRoutes('/about', { load: () => page.promise, firstContent });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shown()).toBe(false);

    page.resolve(pageNamed('About us'));
    await screen.findByRole('heading', { name: 'About us' });
    await waitFor(() => expect(shown()).toBe(true));
  });

  it.each(['/no-such-page', '/gifts/not-an-id'])(
    'is marked by the error page of %s, so prefetches never wait forever',
    async (path) => {
      const firstContent = createContentSignal();
      const shown = isShown(firstContent);
      renderRoutes(path, { firstContent });
      await screen.findByText('404');
      await waitFor(() => expect(shown()).toBe(true));
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
    const fetchStub = jest.fn<Promise<Response>, [RequestInfo | URL, RequestInit?]>();
    for (const reply of replies) fetchStub.mockImplementationOnce(async () => reply());
    fetchStub.mockRejectedValue(new Error('asked the API more often than the test expected'));
    const api = createApiClient({ baseUrl: 'http://api.test', fetch: fetchStub });
    const queryClient = createTestQueryClient();
    const renders: string[] = [];
    const page = deferred<ComponentType>();
    page.promise.catch(() => undefined);
    const requests = () => fetchStub.mock.calls.map(([url]) => String(url));
    return { api, queryClient, renders, page, requests, Page: giftPage(api, queryClient, renders) };
  }

  it('asks for the gift while the page’s code loads, and the page uses that one request', async () => {
    const answer = deferred<Response>();
    const { api, queryClient, renders, page, requests, Page } = setUp(() => answer.promise);
    renderRoutes(`/gifts/${GIFT_ID}`, { load: () => page.promise, api, queryClient });

    await waitFor(() => expect(requests()).toEqual([GIFT_URL]));
    expect(renders).toEqual([]);

    page.resolve(Page);
    await screen.findByRole('heading', { name: 'Loading your gift…' });
    answer.resolve(json(gift));
    expect(await screen.findByRole('heading', { name: 'Cinema ticket' })).toBeInTheDocument();
    expect(requests()).toEqual([GIFT_URL]);
  });

  it('does not ask again for a gift that arrived before the page’s code', async () => {
    const { api, queryClient, renders, page, requests, Page } = setUp(() => json(gift));
    renderRoutes(`/gifts/${GIFT_ID}`, { load: () => page.promise, api, queryClient });
    await waitFor(() => expect(queryClient.getQueryData(apiQueryKeys.gift(GIFT_ID))).toEqual(gift));

    page.resolve(Page);
    expect(await screen.findByRole('heading', { name: 'Cinema ticket' })).toBeInTheDocument();
    expect(renders[0]).toBe('gift');
    expect(requests()).toEqual([GIFT_URL]);
  });

  it('changes nothing when that request fails: the page asks itself and shows what it gets', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { api, queryClient, page, requests, Page } = setUp(
      () => json({ statusCode: 503, statusMessage: 'Service Unavailable', message: 'Down' }, 503),
      () => json(gift),
    );
    renderRoutes(`/gifts/${GIFT_ID}`, { load: () => page.promise, api, queryClient });
    await waitFor(() => expect(queryClient.getQueryState(apiQueryKeys.gift(GIFT_ID))?.status).toBe('error'));

    page.resolve(Page);
    expect(await screen.findByRole('heading', { name: 'Cinema ticket' })).toBeInTheDocument();
    expect(requests()).toEqual([GIFT_URL, GIFT_URL]);
    expect(screen.queryByText('503')).toBeNull();
  });

  it('never asks the API about a malformed id: the validator answers first', async () => {
    const { api, queryClient, requests, page } = setUp();
    const { load } = renderRoutes('/gifts/not-an-id', { load: () => page.promise, api, queryClient });
    expect(await screen.findByText('Page Not Found: /gifts/not-an-id')).toBeInTheDocument();
    expect(requests()).toEqual([]);
    expect(load).not.toHaveBeenCalled();
  });

  it('asks for the redeem session while the redeem page’s code loads', async () => {
    const { api, queryClient, requests, page } = setUp(() => new Promise<Response>(() => undefined));
    renderRoutes(`/redeem/${REDEEM_ID}`, { load: () => page.promise, api, queryClient });
    await waitFor(() => expect(requests()).toEqual([`http://api.test/api/redeems/${REDEEM_ID}`]));
  });

  it('asks for nothing on a page without data', async () => {
    const { api, queryClient, requests } = setUp();
    renderRoutes('/game', { api, queryClient });
    await screen.findByRole('heading', { name: 'Remote page' });
    expect(requests()).toEqual([]);
  });
});
