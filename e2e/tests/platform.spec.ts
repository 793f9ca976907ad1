/**
 * The platform under the pages: a new host build is picked up by the next navigation, one React
 * (and one copy of each shared module) on every route, and the dark theme from the first paint.
 */
import { join } from 'node:path';
import type { Page, Response } from '@playwright/test';
import { followLink, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { openSession, reactRendererCount } from '../support/browser';
import { fetchManifest, keepFile, reportLoads, syncFiles } from '../support/faults';
import { expect, test } from '../support/fixtures';
import { httpGetPage } from '../support/http';
import { copyPartBuild, restartServer } from '../support/servers';
import { HOST_ORIGIN, REMOTE_NAMES, manifestUrlOf, originOf } from '../support/test-env';

const DARK_BG = 'rgb(21, 19, 26)';
const LIGHT_BG = 'rgb(255, 250, 245)';

// The host is restarted (from a copy of its build, whose latest.json a test rewrites): this file
// gets servers of its own.
test.use({ serverOptions: { servers: { host: { env: {} } } } });

function isHostLatest(url: string): boolean {
  return url.startsWith(`${HOST_ORIGIN}/_app/builds/latest.json`);
}

/** Clicks a header link and waits until the page at `path` has rendered. */
async function clickThrough(
  page: Page,
  label: string,
  path: string,
  options: { headingOnly?: boolean } = {},
): Promise<void> {
  await followLink(page, navLink(page, label), path, options);
}

test.describe('host redeployed', () => {
  const INTERVAL_MS = 500;

  test.afterAll(async () => {
    await restartServer('host', { env: {} });
  });

  test('navigations stay client-side until a new host build id is published; then the next one is a full load', async ({
    page,
    watch,
  }) => {
    // The host runs from a copy of its build: its latest.json is this test's to rewrite.
    const copy = copyPartBuild('host');
    await restartServer('host', { packageDir: copy, env: { BUILD_CHECK_INTERVAL_MS: String(INTERVAL_MS) } });
    const latest = keepFile(join(copy, 'dist', '_app', 'builds', 'latest.json'));
    const original = JSON.parse(latest.original) as { id: string; codeVersion?: string };
    try {
      expect(await visit(page, '/')).toBe(200);
      await waitForRenderedPage(page);
      // Several polls answer with this page's own build: nothing changes.
      for (let poll = 0; poll < 2; poll += 1) {
        const response = await page.waitForResponse((res: Response) => isHostLatest(res.url()));
        expect(((await response.json()) as { id: string }).id).toBe(original.id);
      }
      await clickThrough(page, 'About', '/about');
      await clickThrough(page, 'Terms', '/terms');
      expect(reportLoads('host redeployed, same build', watch)).toBe(1);

      // Publish a new build of the same code (renamed over the old file, as a deploy does: a poll
      // under way gets the old file or the new one whole), which the running server serves as
      // soon as it reads it (a build of other code would need its restart): the poll sees it,
      // and the next in-app navigation loads the document.
      const newId = `e2e-redeploy-${Date.now()}`;
      const seen = page.waitForResponse(
        async (res: Response) => isHostLatest(res.url()) && (await res.text()).includes(newId),
      );
      latest.write(`${JSON.stringify({ ...original, id: newId, timestamp: Date.now() })}\n`);
      await seen;
      // The host's server serves it once its own refresh has read it: the full load below is of it.
      const published = async () =>
        ((await (await fetch(`${HOST_ORIGIN}/healthz`)).json()) as { published?: { build: string; served: boolean } })
          .published;
      await expect.poll(published).toEqual({ build: newId, codeVersion: original.codeVersion, served: true });
      // The next poll starts only after this one was handled: the app knows it is stale.
      await page.waitForRequest((request) => isHostLatest(request.url()));
      await followLink(page, navLink(page, 'Privacy'), '/privacy-policy');
      const loads = reportLoads('host redeployed, new build', watch);
      expect(loads).toBe(2);
      expect(watch.documents[1]).toEqual({ url: `${HOST_ORIGIN}/privacy-policy`, status: 200 });
      expect(watch.problems()).toEqual([]);
    } finally {
      latest.restore();
    }
  });
});

interface ScriptFetch {
  url: string;
  document: number;
}

test.describe('one React', () => {
  const ROUTES = ['/', '/about', '/game', '/gifts/:giftId', '/privacy-policy', '/redeem/:redeemId', '/terms'];
  const CONTENT_ROUTES = ['/', '/about', '/privacy-policy', '/terms'];
  /**
   * Host-provided singletons: every copy of them must come from the host (the router and TanStack
   * Query as the lists of their exports the parts import, shared/src/browser/{router,query}).
   */
  const SINGLETONS = [
    'react',
    'react-dom',
    'react-dom/client',
    'react/jsx-runtime',
    'react-router-dom',
    '@tanstack/react-query',
  ];

  async function sharedFiles(names: readonly string[]): Promise<Map<string, string[]>> {
    const byOrigin = new Map<string, string[]>();
    const manifests = [
      { origin: HOST_ORIGIN, url: `${HOST_ORIGIN}/mf-manifest.json` },
      ...REMOTE_NAMES.map((remote) => ({ origin: originOf(remote), url: manifestUrlOf(remote) })),
    ];
    for (const { origin, url } of manifests) {
      const manifest = await fetchManifest(url);
      const files = (manifest.shared ?? [])
        .filter((entry) => names.includes(entry.name))
        .flatMap((entry) => syncFiles(entry, url));
      byOrigin.set(origin, [...new Set(files)]);
    }
    return byOrigin;
  }

  /**
   * Every script request, with the document that made it (1 for the first, and so on). DevTools
   * names a request's document (its loader id): a request the page being left makes after the
   * next navigation has started (its late prefetch of a link's remote, its vitals) counts for that
   * page, not for the next one. Counting by document loads seen so far took them for the next
   * page's second fetch of the same files.
   */
  async function recordScripts(page: Page): Promise<ScriptFetch[]> {
    const fetched: ScriptFetch[] = [];
    const documents = new Map<string, number>();
    const devtools = await page.context().newCDPSession(page);
    devtools.on('Network.requestWillBeSent', ({ loaderId, type, request }) => {
      if (type !== 'Script') return;
      if (!documents.has(loaderId)) documents.set(loaderId, documents.size + 1);
      fetched.push({ url: request.url, document: documents.get(loaderId) ?? 0 });
    });
    await devtools.send('Network.enable');
    return fetched;
  }

  function duplicates(fetched: readonly ScriptFetch[]): string[] {
    const seen = new Set<string>();
    const repeated: string[] = [];
    for (const { url, document } of fetched) {
      const key = `${document} ${url}`;
      if (seen.has(key)) repeated.push(key);
      seen.add(key);
    }
    return repeated;
  }

  test('a session through every route, client-side: one renderer on each, no script fetched twice, react-dom only from the host', async ({
    page,
    watch,
  }) => {
    const reactDom = await sharedFiles(['react-dom', 'react-dom/client']);
    const hostReactDom = reactDom.get(HOST_ORIGIN) ?? [];
    expect(hostReactDom.length).toBeGreaterThan(0);
    const singletons = await sharedFiles(SINGLETONS);
    const fetched = await recordScripts(page);
    const renderers: Record<string, number> = {};
    const count = async (route: string) => {
      renderers[route] = await reactRendererCount(page);
    };

    expect(await visit(page, '/')).toBe(200);
    await waitForRenderedPage(page);
    await count('/');
    await clickThrough(page, 'About', '/about');
    await count('/about');
    await clickThrough(page, 'Privacy', '/privacy-policy');
    await count('/privacy-policy');
    await clickThrough(page, 'Terms', '/terms');
    await count('/terms');
    await clickThrough(page, 'Play', '/game', { headingOnly: true });
    await count('/game');
    // Win, open the gift, start redeeming it: the gift and redeem routes, still client-side.
    await page.getByRole('button', { name: 'Box 2' }).click();
    await page.getByRole('link', { name: 'Open your gift' }).click();
    await page.waitForURL(/\/gifts\/[A-Za-z0-9_-]{24}$/);
    await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
    await count('/gifts/:giftId');
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page.waitForURL(/\/redeem\/[A-Za-z0-9_-]{24}$/);
    await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
    await count('/redeem/:redeemId');
    await followLink(page, page.getByRole('link', { name: 'Gift Box, home' }), '/');
    expect(reportLoads('one React, client-side session', watch)).toBe(1);
    expect(renderers).toEqual(Object.fromEntries(ROUTES.map((route) => [route, 1])));

    const urls = fetched.map((entry) => entry.url);
    console.log('[one React] scripts fetched in the session:', urls.length);
    expect(duplicates(fetched)).toEqual([]);
    const reactDomFetched = urls.filter((url) => [...reactDom.values()].some((files) => files.includes(url)));
    expect(reactDomFetched.length).toBeGreaterThan(0);
    expect(reactDomFetched.filter((url) => !hostReactDom.includes(url))).toEqual([]);
    expect(new Set(reactDomFetched.map((url) => new URL(url).origin))).toEqual(new Set([HOST_ORIGIN]));
    // The other host-provided singletons likewise: no remote's own copy is ever downloaded.
    const remoteSingletons = [...singletons].filter(([origin]) => origin !== HOST_ORIGIN).flatMap(([, files]) => files);
    expect(urls.filter((url) => remoteSingletons.includes(url))).toEqual([]);
    expect(watch.problems()).toEqual([]);
  });

  test('a direct visit of every route: one renderer, no script fetched twice, react-dom only from the host', async ({
    page,
    watch,
    gift,
  }) => {
    const reactDom = await sharedFiles(['react-dom', 'react-dom/client']);
    const remoteReactDom = [...reactDom].filter(([origin]) => origin !== HOST_ORIGIN).flatMap(([, files]) => files);
    const fetched = await recordScripts(page);
    const renderers: Record<string, number> = {};
    for (const route of ROUTES) {
      const path = route.replace(':giftId', gift.giftId).replace(':redeemId', gift.redeemId);
      expect(await visit(page, path)).toBe(200);
      // Content pages have text besides their heading; the others need only the heading.
      await waitForRenderedPage(page, { headingOnly: !CONTENT_ROUTES.includes(route) });
      renderers[route] = await reactRendererCount(page);
      // The page's own prefetches (its visible links', after its content) finish on this page,
      // not while the next one loads.
      await page.waitForLoadState('networkidle');
    }
    expect(reportLoads('one React, direct visits', watch)).toBe(ROUTES.length);
    expect(renderers).toEqual(Object.fromEntries(ROUTES.map((route) => [route, 1])));
    expect(duplicates(fetched)).toEqual([]);
    expect(fetched.filter((entry) => remoteReactDom.includes(entry.url))).toEqual([]);
    expect(watch.problems()).toEqual([]);
  });
});

/** Records the page's background when DOMContentLoaded fires; a string, so nothing is transpiled into it. */
const BACKGROUND_AT_DOM_CONTENT_LOADED = `document.addEventListener('DOMContentLoaded', () => {
  window.__e2eBackgroundAtDcl = getComputedStyle(document.documentElement).backgroundColor;
});`;

type BackgroundWindow = Window & { __e2eBackgroundAtDcl?: string };

test.describe('dark mode', () => {
  async function hostMainScript(): Promise<string> {
    const html = (await httpGetPage(`${HOST_ORIGIN}/`)).body;
    const src = /<script[^>]*\ssrc="?([^"\s>]+\.js)/.exec(html)?.[1];
    if (!src) throw new Error('the host page names no script');
    return new URL(src, HOST_ORIGIN).toString();
  }

  const background = (target: Page) =>
    target.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  for (const [scheme, expected] of [
    ['dark', DARK_BG],
    ['light', LIGHT_BG],
  ] as const) {
    test(`${scheme}: the first paint, before any app script runs, already has the ${expected} background`, async ({
      browser,
      page,
      watch,
    }) => {
      // The suite's pages are light; the dark scheme is a visitor of its own.
      const session = scheme === 'light' ? undefined : await openSession(browser, { colorScheme: scheme });
      try {
        const { page: themed, watch: themedWatch } = session ? await session.newPage() : { page, watch };
        expect(await themed.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
        // The app's own script never arrives: what shows is the HTML and its inline styles alone.
        const mainScript = await hostMainScript();
        let blocked = 0;
        await themed.route(mainScript, (route) => {
          blocked += 1;
          return route.abort('blockedbyclient');
        });
        // A page the server renders nothing into (every route's page has its text, an unknown
        // path's has not): only the boot indicator is in it.
        expect(await visit(themed, '/no-such-page')).toBe(404);
        expect(blocked).toBe(1);
        expect(await themed.locator('#root .p-boot').count()).toBe(1);
        expect(await background(themed)).toBe(expected);

        // With the app: the background at DOMContentLoaded (before the app renders) and after.
        await themed.unrouteAll({ behavior: 'ignoreErrors' });
        await themed.addInitScript({ content: BACKGROUND_AT_DOM_CONTENT_LOADED });
        expect(await visit(themed, '/')).toBe(200);
        await waitForRenderedPage(themed);
        expect(await themed.evaluate(() => (window as BackgroundWindow).__e2eBackgroundAtDcl)).toBe(expected);
        expect(await background(themed)).toBe(expected);
        expect(reportLoads(`dark mode (${scheme})`, themedWatch)).toBe(2);
        expect(themedWatch.pageErrors).toEqual([]);
        if (session) await themed.close();
      } finally {
        await session?.close();
      }
    });
  }
});
