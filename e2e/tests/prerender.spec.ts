/**
 * The host's server starts the page from its HTML: the runtime configuration inline, the
 * route's remote preloaded, and the content pages prerendered, so their text is on screen
 * before any script runs and the app takes the same markup over without a visible change.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { followLink, mainHeading, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { launchBrowser } from '../support/browser';
import { fetchManifest } from '../support/faults';
import { restartServer, stopServer } from '../support/servers';
import { browserSuite } from '../support/suite';
import { HOST_ORIGIN, ROOT_DIR, manifestUrlOf, originOf } from '../support/test-env';

const suite = browserSuite({ withGift: true });
const CONTENT_ORIGIN = originOf('content');

function payloadTitle(page: string): string {
  const file = join(ROOT_DIR, 'remote-content', 'dist', 'payload', `${page}.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { title: string }).title;
}

/** A browser with JavaScript off, started once for the file. */
let noScripts: ReturnType<typeof launchBrowser> | undefined;
afterAll(async () => {
  await (await noScripts)?.close();
});

/** What the visitor sees before any script runs: the page with JavaScript off. */
async function withoutScripts<T>(run: (page: Page) => Promise<T>): Promise<T> {
  noScripts ??= launchBrowser({ contextOptions: { javaScriptEnabled: false } });
  const { page } = await (await noScripts).newPage();
  try {
    return await run(page);
  } finally {
    await page.close();
  }
}

/** Layout shifts the page has seen since it started (the Layout Instability API). */
async function watchLayoutShifts(): Promise<void> {
  await suite.page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { layoutShifts: number[] }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

describe('a content page from the host server', () => {
  test.each([
    ['/', 'home'],
    ['/about', 'about'],
    ['/terms', 'terms'],
    ['/privacy-policy', 'privacy-policy'],
  ])('%s shows its text, in the site frame, before any script runs', async (path, page) => {
    await withoutScripts(async (tab) => {
      expect(await visit(tab, path)).toBe(200);
      expect(await mainHeading(tab).innerText()).toBe(payloadTitle(page));
      expect(await navLink(tab, 'Play').getAttribute('href')).toBe('/game');
      expect(await tab.locator('footer').count()).toBe(1);
      // Styled as the app styles it: the header is a flex row, the page text in its column.
      expect(await tab.locator('header').evaluate((el) => getComputedStyle(el).display)).toBe('flex');
    });
  });

  test('the app takes the page over without a layout shift, a payload request or a configuration request', async () => {
    await watchLayoutShifts();
    const requests: string[] = [];
    suite.page.on('request', (request: Request) => requests.push(request.url()));
    expect(await visit(suite.page, '/about')).toBe(200);
    const shown = await waitForRenderedPage(suite.page);
    expect(shown.heading).toBe(payloadTitle('about'));
    // Past the takeover (and a frame for the layout-shift entries to arrive): nothing moved.
    await suite.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
    const shifts = await suite.page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts);
    // Sub-pixel rounding can register a few millionths; the page text moving by one pixel scores
    // some 0.0004 on this screen, so anything visible fails.
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.0001);
    // The app's own markup now: a client-side navigation works from it.
    expect(await followLink(suite.page, navLink(suite.page, 'Terms'), '/terms')).toMatchObject({
      heading: payloadTitle('terms'),
    });
    expect(suite.watch.documentLoads()).toBe(1);

    // The about text came with the page; the terms text, navigated to, was fetched.
    expect(requests.filter((url) => url.includes('/payload/'))).toEqual([`${CONTENT_ORIGIN}/payload/terms.json`]);
    expect(requests.filter((url) => url.endsWith('/config.json'))).toEqual([]);
    expect(suite.watch.problems()).toEqual([]);
  });

  test("the HTML preloads the route's remote; the remote loads each file once", async () => {
    const requests: string[] = [];
    suite.page.on('request', (request: Request) => requests.push(request.url()));
    expect(await visit(suite.page, '/game')).toBe(200);
    await waitForRenderedPage(suite.page, { headingOnly: true });
    const html = await (await fetch(`${HOST_ORIGIN}/game`, { headers: { Accept: 'text/html' } })).text();
    expect(html).toContain(`<link rel="preload" href="${manifestUrlOf('gifts')}" as="fetch" crossorigin>`);
    // With CORS and its integrity, as the runtime loads it: the preload is used, not fetched again.
    expect(html).toMatch(
      new RegExp(
        `<link rel="preload" href="${originOf('gifts')}/remoteEntry\\.js" as="script" crossorigin integrity="sha384-[A-Za-z0-9+/]{64}">`,
      ),
    );
    const gifts = requests.filter((url) => url.startsWith(originOf('gifts')));
    expect(gifts.length).toBeGreaterThan(2);
    expect(new Set(gifts).size).toBe(gifts.length);
    expect(suite.watch.problems()).toEqual([]);
  });

  test("a page drawn by its remote gets every script it needs from the HTML, the remote's copies of shared modules the host lacks included", async () => {
    const scripts: string[] = [];
    suite.page.on('request', (request: Request) => {
      if (request.resourceType() === 'script' && request.url().startsWith(originOf('gifts'))) {
        scripts.push(request.url());
      }
    });
    const path = `/gifts/${suite.ids.giftId}`;
    expect(await visit(suite.page, path)).toBe(200);
    await waitForRenderedPage(suite.page);
    const html = await (await fetch(`${HOST_ORIGIN}${path}`, { headers: { Accept: 'text/html' } })).text();
    const preloaded = [
      ...html.matchAll(/<link rel="preload" href="([^"]+)" as="script" crossorigin integrity="sha384-[^"]+">/g),
    ].map((match) => match[1]);
    // More than the entry and the page's own chunks: the gift page uses shared modules (the
    // copy-to-clipboard hook, the icons) that the host's own code does not.
    expect(scripts.length).toBeGreaterThan(4);
    // None of them found only once the remote's entry had run, a round trip later.
    expect(scripts.filter((url) => !preloaded.includes(url))).toEqual([]);
    expect(suite.watch.problems()).toEqual([]);
  });
});

describe('the game, prerendered', () => {
  test('shows its boxes, in the site frame, before any script runs', async () => {
    await withoutScripts(async (tab) => {
      expect(await visit(tab, '/game')).toBe(200);
      expect(await mainHeading(tab).innerText()).toBe('Pick a box');
      for (const box of ['Box 1', 'Box 2', 'Box 3']) {
        expect(await tab.getByRole('button', { name: box }).count()).toBe(1);
      }
    });
  });

  test('a box picked before the app has taken the page over is played once the app has', async () => {
    // The game's code held back: the page is still the server's markup when the box is picked.
    const expose = (await fetchManifest(manifestUrlOf('gifts'))).exposes
      ?.find((entry) => entry.name === 'GamePage')
      ?.assets?.js?.sync?.find((name) => name.startsWith('__federation_expose_'));
    const exposeUrl = new URL(expose ?? 'missing', manifestUrlOf('gifts')).href;
    const held: Route[] = [];
    await suite.page.route(exposeUrl, (route: Route) => void held.push(route));
    const plays: string[] = [];
    suite.page.on('request', (request: Request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/game/plays')) plays.push(request.url());
    });

    expect(await visit(suite.page, '/game')).toBe(200);
    await suite.page.getByRole('button', { name: 'Box 2' }).click();
    expect(await suite.page.locator('#root[data-prerendered]').count()).toBe(1);
    expect(plays).toEqual([]);

    for (const route of held) await route.continue();
    await suite.page.unroute(exposeUrl);
    await suite.page.getByRole('heading', { name: 'You won!' }).waitFor();
    expect(plays).toHaveLength(1);
    expect(suite.watch.documentLoads()).toBe(1);
    expect(suite.watch.problems()).toEqual([]);
  });
});

describe('the content remote down', () => {
  afterAll(async () => {
    await restartServer('content', { env: {} });
  });

  test('the last good text still shows, before scripts and after, with a note instead of an error', async () => {
    const title = payloadTitle('about');
    // The host's server has read the content remote's build; then the remote goes away.
    expect(await visit(suite.page, '/about')).toBe(200);
    await waitForRenderedPage(suite.page);
    await stopServer('content');

    await withoutScripts(async (tab) => {
      expect(await visit(tab, '/about')).toBe(200);
      expect(await mainHeading(tab).innerText()).toBe(title);
    });

    const { page, watch } = await suite.browser.newPage();
    try {
      expect(await visit(page, '/about')).toBe(200);
      const note = page.getByRole('status').filter({ hasText: 'Part of this page didn’t load' });
      await note.waitFor({ timeout: 30_000 });
      expect(await mainHeading(page).innerText()).toBe(title);
      expect(await page.locator('main [role="alert"]').count()).toBe(0);
      // One reload through the guard (a failed remote may be a deploy in progress), then the kept text.
      expect(watch.documentLoads()).toBeLessThanOrEqual(2);
    } finally {
      await page.close();
    }
  });
});
