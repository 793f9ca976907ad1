/**
 * What a prefetch makes the real federation runtime download, from manifests shaped like the
 * remotes' builds: a page's own chunks are `sync`; its `async` chunks include the remote's
 * fallback copy of react-router, which the page never loads while the host provides it.
 */
import { createInstance } from '@module-federation/enhanced/runtime';
import { waitFor } from '@testing-library/react';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { loadingPlugin } from './loading-plugin';
import { createRemoteLoader } from './remote-loader';

const GIFTS = 'http://localhost:3001';
const REDEEM = 'http://localhost:3002';
const GIFT_PAGE_CHUNKS = ['1514.92deeda32dae1d95.js', '__federation_expose_GiftPage.95b07c71af499809.js'];
const REACT_ROUTER_FALLBACK = '7675.0acaa2fbe1dbab4e.js';

const noAssets = { js: { sync: [], async: [] }, css: { sync: [], async: [] } };

function manifestOf(name: string, page: string, chunks: string[]) {
  return {
    id: name,
    name,
    metaData: {
      name,
      type: 'app',
      buildInfo: { buildVersion: '0.1.0', buildName: `remote-${name}` },
      remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      types: { path: '', name: '', zip: '', api: '' },
      globalName: name,
      pluginVersion: '2.9.2',
      publicPath: 'auto',
    },
    remotes: [],
    shared: [
      {
        id: `${name}:react-router`,
        name: 'react-router',
        version: '7.18.5',
        singleton: true,
        requiredVersion: '^7.18.5',
        assets: { ...noAssets, js: { sync: ['1608.3e3a5386ab7e6206.js'], async: [] } },
        fallback: '',
      },
    ],
    exposes: [
      {
        id: `${name}:${page}`,
        name: page,
        path: `./${page}`,
        assets: { ...noAssets, js: { sync: chunks, async: [REACT_ROUTER_FALLBACK] } },
      },
    ],
  };
}

const MANIFESTS: Record<string, unknown> = {
  [`${GIFTS}/mf-manifest.json`]: manifestOf('gifts', 'GiftPage', GIFT_PAGE_CHUNKS),
  [`${REDEEM}/mf-manifest.json`]: manifestOf('redeem', 'RedeemPage', ['__federation_expose_RedeemPage.js']),
};

const config = parseRuntimeConfig({
  remotes: { ...everyRemote(), gifts: `${GIFTS}/mf-manifest.json`, redeem: `${REDEEM}/mf-manifest.json` },
  apiBaseUrl: 'http://localhost:3004',
});

/** The real runtime, with the network answering manifests. It keeps what it fetched page-wide, so each test uses its own remote. */
function startRuntime() {
  const manifestRequests = jest.fn(async (url: string) => Response.json(MANIFESTS[url]));
  const runtime = createInstance({
    name: 'host',
    remotes: [],
    plugins: [{ name: 'test-network', fetch: manifestRequests }],
  });
  return { runtime, manifestRequests };
}

function requested(): { preloads: string[]; scripts: string[] } {
  const urls = (selector: string, attribute: string) =>
    [...document.head.querySelectorAll(selector)].map((element) => element.getAttribute(attribute) ?? '');
  return { preloads: urls('link[rel="preload"]', 'href'), scripts: urls('script[src]', 'src') };
}

afterEach(() => {
  // jsdom fetches nothing: fail what the runtime waits for, so no prefetch outlives its test.
  for (const element of document.head.querySelectorAll('link, script')) element.dispatchEvent(new Event('error'));
  document.head.replaceChildren();
});

describe('what a prefetch downloads', () => {
  it("fetches a hovered page's own chunks and the entry, not the remote's copies of shared libraries", async () => {
    const { runtime, manifestRequests } = startRuntime();
    createRemoteLoader({ config, runtime, log: jest.fn() }).prefetch('gifts', 'GiftPage');

    await waitFor(() => expect(requested().preloads).toHaveLength(GIFT_PAGE_CHUNKS.length));
    expect(requested()).toEqual({
      preloads: GIFT_PAGE_CHUNKS.map((chunk) => `${GIFTS}/${chunk}`),
      scripts: [`${GIFTS}/remoteEntry.js`],
    });
    expect(manifestRequests).toHaveBeenCalledTimes(1);
  });

  it('fetches only the manifest and the entry for a link that is visible', async () => {
    const { runtime, manifestRequests } = startRuntime();
    createRemoteLoader({ config, runtime, log: jest.fn() }).prefetch('redeem');

    await waitFor(() => expect(requested().scripts).toEqual([`${REDEEM}/remoteEntry.js`]));
    expect(requested().preloads).toEqual([]);
    expect(manifestRequests).toHaveBeenCalledTimes(1);
  });
});

describe("what a prefetch downloads: the remote's copies of shared modules the page lacks", () => {
  const CONTENT = 'http://localhost:3003';
  const FORMAT_COPY = '4095.0f3e8f6befa91a14.js';
  const HTTP_ERROR_COPY = '1850.be9e79fac3c23e29.js';
  const IDS_COPY = '4036.5465d392da519159.js';
  const REACT_COPY = '3696.b93fb5a4a58c0878.js';
  const ABOUT_PAGE_CHUNKS = ['__federation_expose_AboutPage.js'];
  const files = ['remoteEntry.js', ...GIFT_PAGE_CHUNKS, ...ABOUT_PAGE_CHUNKS, FORMAT_COPY, HTTP_ERROR_COPY, IDS_COPY];
  const content = {
    ...manifestOf('content', 'HomePage', GIFT_PAGE_CHUNKS),
    exposes: [
      ...manifestOf('content', 'HomePage', GIFT_PAGE_CHUNKS).exposes,
      ...manifestOf('content', 'AboutPage', ABOUT_PAGE_CHUNKS).exposes,
    ],
    integrity: Object.fromEntries(
      [...files, REACT_COPY].map((file, index) => [file, `sha384-${'ABCDEFGHIJ'[index] ?? 'Z'}`.padEnd(71, 'x')]),
    ),
    sharedFallbacks: {
      exposes: {
        HomePage: ['react', 'shared/format', 'shared/http-error'],
        AboutPage: ['shared/format', 'shared/ids'],
      },
      shared: {
        react: { js: [REACT_COPY], uses: [] },
        'shared/format': { js: [FORMAT_COPY], uses: ['react'] },
        'shared/http-error': { js: [HTTP_ERROR_COPY], uses: [] },
        'shared/ids': { js: [IDS_COPY], uses: [] },
      },
    },
  };
  const config = parseRuntimeConfig({
    remotes: { ...everyRemote(), content: `${CONTENT}/mf-manifest.json` },
    apiBaseUrl: 'http://localhost:3004',
  });

  /** The real runtime with the host's loading plugin; the page holds React and shared/http-error. */
  function startHostRuntime() {
    jest.spyOn(window, 'fetch').mockImplementation(() => Promise.resolve(Response.json(content)));
    const held = (version: string) => ({
      version,
      lib: () => ({}),
      shareConfig: { singleton: true, requiredVersion: false as const },
    });
    return createInstance({
      name: 'host',
      remotes: [],
      shared: { react: held('19.3.1'), 'shared/http-error': held('0.1.0') },
      plugins: [loadingPlugin({ timeoutMs: 4_000, allowedOrigins: [CONTENT], requireIntegrity: true })],
    });
  }

  const preloads = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')];
  const preloaded = () => preloads().map((link) => link.href);

  afterEach(() => {
    jest.restoreAllMocks();
    delete (performance as Partial<Performance>).getEntriesByName;
  });

  it('preloads them with the page, with CORS and their digests; never those the page holds or has fetched', async () => {
    const loader = createRemoteLoader({ config, runtime: startHostRuntime(), log: jest.fn() });
    loader.prefetch('content', 'HomePage');

    await waitFor(() => expect(preloaded()).toContain(`${CONTENT}/${FORMAT_COPY}`));
    const copy = preloads().find((link) => link.href === `${CONTENT}/${FORMAT_COPY}`);
    expect(copy?.getAttribute('as')).toBe('script');
    expect(copy?.getAttribute('crossorigin')).toBe('anonymous');
    expect(copy?.getAttribute('integrity')).toBe(content.integrity[FORMAT_COPY]);
    expect(preloaded()).not.toContain(`${CONTENT}/${HTTP_ERROR_COPY}`);
    expect(preloaded()).not.toContain(`${CONTENT}/${REACT_COPY}`);

    // The remote's runtime has run the format copy: its script element is gone, its resource
    // timing stays (jsdom keeps none: the page's has this one entry).
    document.head.replaceChildren();
    Object.defineProperty(performance, 'getEntriesByName', {
      configurable: true,
      value: (name: string) => (name === `${CONTENT}/${FORMAT_COPY}` ? [{ name }] : []),
    });
    loader.prefetch('content', 'AboutPage');
    await waitFor(() => expect(preloaded()).toContain(`${CONTENT}/${IDS_COPY}`));
    expect(preloaded()).not.toContain(`${CONTENT}/${FORMAT_COPY}`);
  });
});
