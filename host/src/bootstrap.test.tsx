/**
 * The page's start from its inline configuration, over a federation runtime the test stands in
 * for: the route table is the one the host's server wrote into the configuration, or, in a
 * configuration without one (a static `/config.json`, a server older than the format), the one
 * the page composes from the remotes' manifests (fetched at the network boundary).
 */
import { act, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { RUNTIME_CONFIG_ELEMENT_ID } from 'shared/page-data';
import { publishedRoutesOf } from 'shared/published-routes';
import { remoteSpec } from 'shared/remotes';
import { everyRemote } from 'shared/testing/runtime-config';
import { firstRouteLoaded, start, type PageFederation } from './bootstrap';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { readRuntimeConfig } from './config/fetch-config';

const NEWS = 'https://news.example.com/mf-manifest.json';
const REMOTES = { ...everyRemote((name) => `https://${name}.example.com/mf-manifest.json`), news: NEWS };

const newsRoutes = {
  version: 1,
  remote: 'news',
  exposes: {
    NewsPage: { routes: [{ path: '/news', layout: 'no-footer', title: 'News' }] },
    ArchivePage: { routes: [{ path: '/news/archive', layout: 'default', title: 'Archive' }] },
  },
};

/** Each remote's manifest as its server answers it: content's is down, gifts' predates published routes. */
const MANIFESTS: Record<string, unknown> = {
  [NEWS]: { name: 'news', routes: newsRoutes },
  [REMOTES.gifts]: { name: 'gifts' },
  [REMOTES.redeem]: { name: 'redeem', routes: publishedRoutesOf('redeem', remoteSpec('redeem')!) },
};

let fetched: string[];

beforeAll(() => {
  (globalThis as { __BUILD_ID__?: string }).__BUILD_ID__ = 'host-test';
});

beforeEach(() => {
  fetched = [];
  jest.spyOn(window, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    fetched.push(url);
    const body = MANIFESTS[url];
    return body === undefined ? new Response('', { status: 404 }) : Response.json(body);
  });
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  jest.restoreAllMocks();
  document.body.innerHTML = '';
});

/** A federation runtime whose remotes each give a page naming its module. */
function federation() {
  const loadRemote = jest.fn(async (id: string) => {
    const Page: ComponentType = () => <h1>{`${id} content`}</h1>;
    return { default: Page } as never;
  });
  return {
    registerPlugins: jest.fn(),
    registerRemotes: jest.fn(),
    loadRemote,
    preloadRemote: jest.fn(async () => undefined),
  } satisfies PageFederation;
}

/**
 * The page at `path` as a host's server sends it, with `config` inline as the server writes it
 * (checked, its defaults filled in), once its first route has loaded.
 */
async function openPage(path: string, config: Record<string, unknown>) {
  window.history.replaceState(null, '', path);
  const inline = JSON.stringify(
    parseRuntimeConfig({ apiBaseUrl: 'https://api.example.com', telemetry: { enabled: false }, ...config }),
  );
  document.body.innerHTML = `<script id="${RUNTIME_CONFIG_ELEMENT_ID}" type="application/json">${inline}</script><div id="root"></div>`;
  const runtime = federation();
  await act(async () => {
    const page = await start(readRuntimeConfig(), runtime);
    if (page) await firstRouteLoaded(page.router);
  });
  return runtime;
}

const layout = () => document.querySelector('[data-layout]')?.getAttribute('data-layout');

describe("the page's route table", () => {
  it("is the one the host's server composed: an added remote's page, its layout and title, and no manifest read", async () => {
    const routes = [
      { remote: 'content', module: 'HomePage', path: '/', layout: 'default', title: 'Home' },
      { remote: 'news', module: 'NewsPage', path: '/news', layout: 'no-footer', title: 'News' },
    ];
    const runtime = await openPage('/news', { remotes: REMOTES, routes });

    expect(screen.getByRole('heading', { name: 'news/NewsPage content' })).toBeInTheDocument();
    expect(layout()).toBe('no-footer');
    expect(document.title).toMatch(/^News/);
    expect(runtime.registerRemotes).toHaveBeenCalledWith(expect.arrayContaining([{ name: 'news', entry: NEWS }]));
    expect(fetched).not.toContain(NEWS);
  });

  it("is composed by the page from the remotes' manifests when the configuration has none", async () => {
    const config = { remotes: REMOTES, routeGrants: { news: ['/news'] } };
    await openPage('/news', config);
    expect(screen.getByRole('heading', { name: 'news/NewsPage content' })).toBeInTheDocument();
    expect(layout()).toBe('no-footer');
    expect(fetched).toEqual(expect.arrayContaining([NEWS, REMOTES.gifts, REMOTES.content, REMOTES.redeem]));
  });

  it('leaves out a path the remote publishes but was not granted: the not-found page, the refusal said', async () => {
    await openPage('/news/archive', { remotes: REMOTES, routeGrants: { news: ['/news'] } });
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Page not found: /news/archive')).toBeInTheDocument();
    expect(console.warn).toHaveBeenCalledWith(
      expect.stringContaining("The news remote's route /news/archive (ArchivePage) is left out"),
    );
  });

  it.each([
    ['/about', 'content/AboutPage', 'is down'],
    ['/game', 'gifts/GamePage', 'publishes no routes'],
  ])("routes %s to %s: the registry's routes of a remote whose manifest %s", async (path, page) => {
    await openPage(path, { remotes: REMOTES, routeGrants: { news: ['/news'] } });
    expect(screen.getByRole('heading', { name: `${page} content` })).toBeInTheDocument();
  });

  it("mounts from an older server's configuration: no routes, and a remote this build does not know", async () => {
    // No grant for news: none of its pages is routed, and the rest of the site works.
    await openPage('/', { remotes: REMOTES });
    expect(screen.getByRole('heading', { name: 'content/HomePage content' })).toBeInTheDocument();
  });
});
