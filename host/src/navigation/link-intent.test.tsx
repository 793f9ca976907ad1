import { fireEvent, render, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiClient } from 'shared/api/client';
import { apiQueryKeys } from 'shared/browser/api/query-keys';
import { createRequestActivity } from 'shared/browser/api/activity';
import { GIFT_ID, aGiftView } from 'shared/testing/api-fixtures';
import { createTestQueryClient } from 'shared/testing/query-client';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { AppServicesContext, type AppServices } from '../app-services';
import { createRemoteLoader, type FederationRuntime, type RemoteLoader } from '../federation/remote-loader';
import { RouteTable } from '../route-table/route-table';
import { prefetchRouteData } from '../router/route-data';
import { createRouteLoader } from '../router/route-loader';
import { LinkIntent } from './link-intent';
import { versionCheckStub } from '../test-utils';

const gift = aGiftView();
const REGISTRY = RouteTable.registry();

function renderLinks(links: Record<string, string>, remotes?: RemoteLoader, routes = REGISTRY) {
  const prefetch = jest.fn();
  const getGift = jest.fn(() => Promise.resolve(gift));
  const data = { api: { getGift } as unknown as ApiClient, queryClient: createTestQueryClient() };
  const services = {
    routes,
    remotes: remotes ?? { load: jest.fn(), prefetch, warm: jest.fn(), reset: jest.fn(), buildOf: () => undefined },
    versionCheck: versionCheckStub(),
    fullLoad: jest.fn(),
    reloadOnce: jest.fn(() => false),
    apiActivity: createRequestActivity(),
  } satisfies AppServices;
  const view = render(
    <AppServicesContext.Provider value={services}>
      <LinkIntent data={data} />
      {Object.entries(links).map(([name, href]) => (
        <a key={name} href={href}>
          <span>{name}</span>
        </a>
      ))}
    </AppServicesContext.Provider>,
  );
  const link = (name: string) => view.getByText(name);
  return { prefetch, getGift, data, link, view, services };
}

describe('LinkIntent', () => {
  it("starts the page of a remote the host's build never saw, from the page's composed table", async () => {
    const routes = new RouteTable([
      ...REGISTRY.routes,
      { remote: 'news', module: 'NewsPage', path: '/news', layout: 'default', title: 'News' },
    ]);
    const { prefetch, link } = renderLinks({ News: '/news' }, undefined, routes);
    await userEvent.hover(link('News'));
    expect(prefetch).toHaveBeenCalledWith('news', 'NewsPage');
  });

  it("starts a page's code when a link to it is pointed at or focused, from anywhere in the page", async () => {
    const { prefetch, getGift, link, services } = renderLinks({ Play: '/game', 'Your gift': `/gifts/${GIFT_ID}` });
    await userEvent.hover(link('Play'));
    expect(prefetch).toHaveBeenCalledWith('gifts', 'GamePage');
    // The builds' question a navigation may ask is asked too, so the click finds its answer.
    expect(services.versionCheck.prepareNavigation).toHaveBeenCalled();

    link('Your gift').closest('a')?.focus();
    expect(prefetch).toHaveBeenCalledWith('gifts', 'GiftPage');
    // Pointing is not pressing: the gift is not asked for (it would count as a view).
    expect(getGift).not.toHaveBeenCalled();
  });

  it("starts a page's data too when its link is pressed, and the navigation that follows does not ask again", async () => {
    const { prefetch, getGift, data, link } = renderLinks({ 'Your gift': `/gifts/${GIFT_ID}` });
    fireEvent.pointerDown(link('Your gift'));
    fireEvent.touchStart(link('Your gift'));
    expect(prefetch).toHaveBeenCalledWith('gifts', 'GiftPage');
    expect(getGift).toHaveBeenCalledTimes(1);
    expect(getGift).toHaveBeenCalledWith(GIFT_ID);
    // Answered before the click: the navigation uses that answer.
    await waitFor(() => expect(data.queryClient.getQueryData(apiQueryKeys.gift(GIFT_ID))).toEqual(gift));

    const match = REGISTRY.matchRoute(`/gifts/${GIFT_ID}`);
    if (!match) throw new Error('no route for the gift page');
    prefetchRouteData(match.route, match.params, data);
    expect(getGift).toHaveBeenCalledTimes(1);
  });

  it('asks for nothing for a link to another site, to no page, or to an id the route refuses', () => {
    const { prefetch, getGift, link, services } = renderLinks({
      Elsewhere: 'https://elsewhere.example/game',
      Nowhere: '/no-such-page',
      Malformed: '/gifts/not-an-id',
    });
    for (const name of ['Elsewhere', 'Nowhere', 'Malformed']) fireEvent.pointerDown(link(name));
    expect(prefetch).not.toHaveBeenCalled();
    expect(services.versionCheck.prepareNavigation).not.toHaveBeenCalled();
    expect(getGift).not.toHaveBeenCalled();
  });

  it('stops listening when it leaves the page', () => {
    const { prefetch, link, view } = renderLinks({ Play: '/game' });
    const play = link('Play').closest('a') as HTMLAnchorElement;
    view.rerender(<a href="/game">Play</a>);
    fireEvent.pointerDown(play);
    expect(prefetch).not.toHaveBeenCalled();
  });

  describe("runs the page's module ahead of the click", () => {
    function Page() {
      return null;
    }
    const config = parseRuntimeConfig({
      remotes: everyRemote(),
      apiBaseUrl: 'http://localhost:3004',
      remoteTimeoutMs: 5_000,
    });

    /** The real loader on a runtime that downloads at once and runs the page as `run` says. */
    function realLoader(run: (id: string) => Promise<unknown>) {
      const runtime = {
        registerRemotes: jest.fn(),
        loadRemote: jest.fn(run),
        preloadRemote: jest.fn(async () => undefined),
      };
      const onLoadEnd = jest.fn();
      const log = jest.fn();
      const loader = createRemoteLoader({
        config,
        runtime: runtime as typeof runtime & FederationRuntime,
        onLoadEnd,
        log,
        retryDelaysMs: [],
      });
      return { runtime, onLoadEnd, log, loader };
    }

    it('after a hover the page is loaded before any click, and the click only renders it', async () => {
      const { runtime, onLoadEnd, loader } = realLoader(async () => ({ default: Page }));
      const { link } = renderLinks({ Play: '/game' }, loader);
      await userEvent.hover(link('Play'));
      await waitFor(() => expect(runtime.loadRemote).toHaveBeenCalledWith('gifts/GamePage'));
      expect(onLoadEnd).not.toHaveBeenCalled();

      await expect(loader.load('gifts', 'GamePage')).resolves.toBe(Page);
      expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
      // The page's one load, reported by the navigation that uses it.
      expect(onLoadEnd).toHaveBeenCalledTimes(1);
    });

    it("a failed early load shows and reports nothing, and the click's load tries again", async () => {
      let fail = true;
      const { runtime, onLoadEnd, log, loader } = realLoader(async () => {
        if (fail) throw new Error('[ Federation Runtime ]: RUNTIME-008 remote entry failed');
        return { default: Page };
      });
      const { link, services, data } = renderLinks({ Play: '/game' }, loader);
      fireEvent.pointerDown(link('Play'));
      await waitFor(() =>
        expect(log).toHaveBeenCalledWith(expect.stringContaining('ahead of need'), expect.any(Error)),
      );
      expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
      expect(onLoadEnd).not.toHaveBeenCalled();
      expect(services.reloadOnce).not.toHaveBeenCalled();

      fail = false;
      const match = REGISTRY.matchRoute('/game');
      if (!match) throw new Error('no route for the game page');
      const routeLoader = createRouteLoader(match.route, { ...services, ...data, fullLoad: jest.fn() });
      const url = new URL('http://localhost/game');
      const args = { request: new Request(url), url, pattern: '/game', params: {}, context: undefined };
      await expect(routeLoader(args)).resolves.toEqual({ Page });
      expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
      expect(services.reloadOnce).not.toHaveBeenCalled();
      expect(onLoadEnd).toHaveBeenCalledTimes(1);
      expect(onLoadEnd).toHaveBeenCalledWith(expect.objectContaining({ ok: true }));
    });
  });
});
