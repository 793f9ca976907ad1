/**
 * Smoke test of the built apps as deployed: every route in a real browser, client-side
 * navigation, the error pages, the runtime configuration, cache headers and build files.
 */
import {
  errorPage,
  layoutName,
  mainHeading,
  navLink,
  visit,
  waitForRenderedPage,
  type LayoutName,
} from '../support/app-page';
import { reactRendererCount } from '../support/browser';
import { expect, test, type Gift } from '../support/fixtures';
import { httpGet, httpGetJson, httpGetPage } from '../support/http';
import { HOST_ORIGIN, REMOTE_NAMES, VALID_ID, manifestUrlOf, originOf } from '../support/test-env';

/** The host's own copy on its error pages; update here when it changes. */
const COPY = {
  notFoundTitle: 'Page Not Found',
  unknownRouteMessage: (path: string) => `Page not found: ${path}`,
  invalidIdMessage: (path: string) => `Page Not Found: ${path}`,
};

interface RouteCase {
  path: string;
  layout: LayoutName;
}

const ROUTES: readonly RouteCase[] = [
  { path: '/', layout: 'default' },
  { path: '/about', layout: 'default' },
  { path: '/game', layout: 'default' },
  { path: '/gifts/:giftId', layout: 'no-footer' },
  { path: '/privacy-policy', layout: 'default' },
  { path: '/redeem/:redeemId', layout: 'redeem' },
  { path: '/terms', layout: 'default' },
];

const SCRIPT_PATH = '/%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E';
const LONG_PATH = `/${'a'.repeat(3000)}`;
const YEAR_CACHE = /\bmax-age=31536000\b/;

type PwnedWindow = Window & { __pwned?: unknown };

/** A route's path with a real gift and redeem session made through the API. */
function concrete(path: string, gift: Gift): string {
  return path.replace(':giftId', gift.giftId).replace(':redeemId', gift.redeemId);
}

test.describe('in the browser', () => {
  // A page is the route's remote's by its layout and the absence of the host's error page: its
  // heading and text are its team's copy, which they change without this test.
  for (const { path, layout } of ROUTES) {
    test(`${path} renders its page in the ${layout} layout, cleanly`, async ({ page, watch, gift }) => {
      expect(await visit(page, concrete(path, gift))).toBe(200);
      await waitForRenderedPage(page);
      expect(await errorPage(page).count()).toBe(0);
      expect(await mainHeading(page).isVisible()).toBe(true);
      expect(await layoutName(page)).toBe(layout);
      expect(await page.locator('footer').count()).toBe(layout === 'default' ? 1 : 0);
      expect(await reactRendererCount(page)).toBe(1);
      expect(watch.problems()).toEqual([]);
    });
  }

  test('a header link navigates without loading the document; a reload loads it', async ({ page, watch }) => {
    expect(await visit(page, '/')).toBe(200);
    const home = await waitForRenderedPage(page);
    expect(watch.documentLoads()).toBe(1);

    await navLink(page, 'About').click();
    await page.waitForURL(`${HOST_ORIGIN}/about`);
    await page.waitForFunction(
      (before) => document.querySelector('main h1')?.textContent?.trim() !== before,
      home.heading,
    );
    await waitForRenderedPage(page);
    expect(watch.documentLoads()).toBe(1);

    await page.reload();
    await waitForRenderedPage(page);
    expect(watch.documentLoads()).toBe(2);
    expect(watch.lastDocumentStatus()).toBe(200);
    expect(watch.problems()).toEqual([]);
  });

  test('an unknown path answers 404 with the not-found page inside the default layout', async ({ page, watch }) => {
    const path = '/no-such-page';
    expect(await visit(page, path)).toBe(404);
    const error = errorPage(page);
    await error.getByText(COPY.unknownRouteMessage(path), { exact: true }).waitFor();
    expect(await error.getByText('404', { exact: true }).isVisible()).toBe(true);
    expect(await mainHeading(page).innerText()).toBe(COPY.notFoundTitle);
    expect(await layoutName(page)).toBe('default');

    await navLink(page, 'Home').click();
    await page.waitForURL(`${HOST_ORIGIN}/`);
    await waitForRenderedPage(page);
    expect(await error.count()).toBe(0);
    expect(watch.documentLoads()).toBe(1);
    expect(watch.problems({ allowDocumentErrorStatus: true })).toEqual([]);
  });

  for (const path of ['/gifts/not-an-id', '/redeem/x']) {
    test(`a malformed id in ${path} answers 404 with the validation message`, async ({ page, watch }) => {
      expect(await visit(page, path)).toBe(404);
      const error = errorPage(page);
      await error.getByText(COPY.invalidIdMessage(path), { exact: true }).waitFor();
      expect(await error.getByText('404', { exact: true }).isVisible()).toBe(true);
      expect(watch.problems({ allowDocumentErrorStatus: true })).toEqual([]);
    });
  }

  for (const [what, path, shown] of [
    ['a script tag', SCRIPT_PATH, '/<script>window.__pwned=1</script>'],
    ['3000 characters', LONG_PATH, LONG_PATH],
  ] as const) {
    test(`a path with ${what} is shown as text on the 404 page`, async ({ page, watch }) => {
      expect(await visit(page, path)).toBe(404);
      await errorPage(page).getByText(COPY.unknownRouteMessage(shown), { exact: true }).waitFor();
      expect(await page.evaluate(() => (window as PwnedWindow).__pwned)).toBeUndefined();
      expect(await page.locator('main script').count()).toBe(0);
      expect(watch.dialogs).toEqual([]);
      expect(watch.problems({ allowDocumentErrorStatus: true })).toEqual([]);
    });
  }
});

test.describe('runtime configuration', () => {
  test('GET /config.json points the host at the test servers and is revalidated', async () => {
    const response = await httpGet(`${HOST_ORIGIN}/config.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(JSON.parse(response.body)).toMatchObject({
      remotes: { gifts: manifestUrlOf('gifts'), redeem: manifestUrlOf('redeem'), content: manifestUrlOf('content') },
      apiBaseUrl: originOf('api'),
    });
  });
});

test.describe('served files', () => {
  test('entries, manifests, pages and build files must be revalidated', async () => {
    const urls = [
      ...REMOTE_NAMES.flatMap((remote) =>
        ['remoteEntry.js', 'mf-manifest.json', 'builds/latest.json', 'index.html'].map(
          (file) => `${originOf(remote)}/${file}`,
        ),
      ),
      `${HOST_ORIGIN}/mf-manifest.json`,
      `${HOST_ORIGIN}/_app/builds/latest.json`,
      `${HOST_ORIGIN}/config.json`,
      `${originOf('content')}/payload/about.json`,
    ];
    const pages = ['/', '/about'].map((path) => `${HOST_ORIGIN}${path}`);
    // A gift's or a session's page is the visitor's own, stored by no cache (an unknown one is a 404).
    const ownPages = [`/gifts/${VALID_ID}`, `/redeem/${VALID_ID}`].map((path) => `${HOST_ORIGIN}${path}`);
    const results = await Promise.all([
      ...urls.map((url) => httpGet(url)),
      ...[...pages, ...ownPages].map((url) => httpGetPage(url)),
    ]);
    const seen = [...urls, ...pages, ...ownPages].map((url, index) => ({
      url,
      status: results[index]?.status,
      cacheControl: results[index]?.headers.get('cache-control'),
    }));
    expect(seen).toEqual([
      ...urls.map((url) => ({ url, status: 200, cacheControl: 'no-cache' })),
      // A page differs by the visitor's cohort cookie (the builds they get): their browser's alone.
      ...pages.map((url) => ({ url, status: 200, cacheControl: 'private, no-cache' })),
      ...ownPages.map((url) => ({ url, status: 404, cacheControl: 'private, no-store' })),
    ]);
  });

  test('content-hashed files are cached for a year as immutable', async () => {
    const html = (await httpGetPage(`${HOST_ORIGIN}/`)).body;
    const hostScript = /<script[^>]*\ssrc="?([^"\s>]+\.js)/.exec(html)?.[1];
    expect(hostScript).toBeDefined();
    const hashed = [new URL(hostScript as string, HOST_ORIGIN).toString()];
    for (const remote of REMOTE_NAMES) {
      const manifest = await httpGetJson<Manifest>(manifestUrlOf(remote));
      const chunk = [...(manifest.exposes ?? []), ...(manifest.shared ?? [])].flatMap(
        (entry) => entry.assets?.js?.sync ?? [],
      )[0];
      expect(chunk).toBeDefined();
      hashed.push(`${originOf(remote)}/${chunk}`);
    }
    for (const url of hashed) {
      const response = await httpGet(url);
      expect({ url, status: response.status }).toEqual({ url, status: 200 });
      const cacheControl = response.headers.get('cache-control') ?? '';
      expect({ url, cacheControl }).toEqual({ url, cacheControl: expect.stringMatching(YEAR_CACHE) });
      expect({ url, cacheControl }).toEqual({ url, cacheControl: expect.stringContaining('immutable') });
    }
  });

  test('a missing script answers 404, not the app page', async () => {
    for (const origin of [HOST_ORIGIN, ...REMOTE_NAMES.map(originOf)]) {
      const url = `${origin}/no-such-chunk.0123456789abcdef.js`;
      const response = await httpGet(url);
      expect({ url, status: response.status }).toEqual({ url, status: 404 });
      expect(response.headers.get('content-type') ?? '').not.toMatch(/html/);
    }
  });

  test('remotes allow the host origin through CORS, and only it', async () => {
    for (const remote of REMOTE_NAMES) {
      const url = manifestUrlOf(remote);
      const allowed = await httpGet(url, { origin: HOST_ORIGIN });
      expect({ url, allowOrigin: allowed.headers.get('access-control-allow-origin') }).toEqual({
        url,
        allowOrigin: HOST_ORIGIN,
      });
      const other = await httpGet(url, { origin: 'http://elsewhere.example' });
      expect({ url, allowOrigin: other.headers.get('access-control-allow-origin') }).toEqual({
        url,
        allowOrigin: null,
      });
    }
  });
});

test.describe('build info', () => {
  test('the host publishes its latest build and that build’s meta file', async () => {
    const latest = await httpGetJson<BuildInfo>(`${HOST_ORIGIN}/_app/builds/latest.json`);
    // The code version ties the build to the host's server compiled from the same sources.
    expect(latest).toEqual({
      id: expect.any(String),
      timestamp: expect.any(Number),
      codeVersion: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(latest.id).not.toBe('');
    const meta = await httpGetJson<BuildInfo>(`${HOST_ORIGIN}/_app/builds/meta/${encodeURIComponent(latest.id)}.json`);
    expect(meta).toMatchObject({ id: latest.id, timestamp: latest.timestamp });
  });

  for (const remote of REMOTE_NAMES) {
    test(`the ${remote} remote publishes its latest build and that build’s meta file`, async () => {
      const latest = await httpGetJson<BuildInfo>(`${originOf(remote)}/builds/latest.json`);
      expect(latest).toEqual({ id: expect.any(String), timestamp: expect.any(Number) });
      const meta = await httpGetJson<BuildInfo>(
        `${originOf(remote)}/builds/meta/${encodeURIComponent(latest.id)}.json`,
      );
      expect(meta).toMatchObject({ id: latest.id });
    });
  }
});

interface BuildInfo {
  id: string;
  timestamp: number;
}

interface ManifestEntry {
  assets?: { js?: { sync?: string[] } };
}

interface Manifest {
  exposes?: ManifestEntry[];
  shared?: ManifestEntry[];
}
