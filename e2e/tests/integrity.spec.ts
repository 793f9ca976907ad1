/**
 * Remote code verified before it runs. Every script of a remote carries the sha384 integrity its
 * build recorded; a remoteEntry.js or a chunk whose bytes differ is never run, and the route
 * shows the remote's in-layout error without a reload loop. Remotes come only from the allowed
 * origins (REMOTE_ORIGINS): a remote URL outside them stops the host's server at start and the
 * app in the browser, and a manifest that points elsewhere is refused.
 *
 * The tampered remote is a copy of the gifts remote's build, served from a temporary folder
 * (STATIC_ROOT), its manifest untouched: what a compromised file store or CDN would serve. The
 * file restarts servers: it has a worker and servers of its own.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page, Request, Route } from '@playwright/test';
import { errorPage, layoutName, mainNav, visit } from '../support/app-page';
import type { PageWatch } from '../support/browser';
import { logSinceLastStart, reportLoads, retryButton, waitForRetryableError } from '../support/faults';
import { expect, test, type Gift } from '../support/fixtures';
import { httpGetJson } from '../support/http';
import { copyBuild, exposeChunk, removeRedeployFolders, tempFolder } from '../support/redeploy';
import { logFileOf, restartServer, runningServer, startServer, stopServer } from '../support/servers';
import { HOST_ORIGIN, ROOT_DIR, TEST_PORTS, manifestUrlOf, originOf } from '../support/test-env';

const GIFTS_DIST = join(ROOT_DIR, 'remote-gifts', 'dist');
const GIFTS_ORIGIN = originOf('gifts');
/** What a remote's runtime logs when it refuses a chunk its build has no digest for. */
const NO_DIGEST = /^\[integrity\] gifts: chunk \S+ has no digest in this build, so it is refused: (\S+)/;
/** What Chromium logs when it refuses a script for its integrity. */
const INTEGRITY_REFUSAL = /Failed to find a valid digest in the 'integrity' attribute for resource '([^']+)'/;

// Servers of its own, started with the suite's settings: this file restarts them.
test.use({ serverOptions: { servers: {} } });

// A route still holding a request when the test ends is no failure of the test.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

const giftPath = (gift: Gift) => `/gifts/${gift.giftId}`;
const giftHeading = (page: Page) => page.getByRole('heading', { name: /^Your gift(:|$)/ });

/** The scripts Chromium refused for their integrity, by URL. */
function refusedForIntegrity(watch: PageWatch): string[] {
  return watch.consoleErrors.flatMap((text) => INTEGRITY_REFUSAL.exec(text)?.[1] ?? []);
}

/** Whether the page ran code that sets `flag`. */
function ran(page: Page, flag: string): Promise<boolean> {
  return page.evaluate((name) => (window as unknown as Record<string, unknown>)[name] === true, flag);
}

/** Requests the page sent, while `during` runs. */
async function requestsDuring(page: Page, during: () => Promise<void>): Promise<string[]> {
  const urls: string[] = [];
  const record = (request: Request) => urls.push(request.url());
  page.on('request', record);
  try {
    await during();
  } finally {
    page.off('request', record);
  }
  return urls;
}

/**
 * A visitor who has none of the remote's files in the browser's cache: a content-hashed chunk the
 * browser already holds (immutable) is used from there, its genuine bytes, and never asked again.
 */
async function clearHttpCache(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
}

/** The in-layout error of the gifts remote, in plain words, the cause under "Details". */
async function expectGiftsRemoteError(page: Page): Promise<string> {
  const shown = await waitForRetryableError(page);
  expect(shown.title).toBe('This part of the site is unavailable right now');
  expect(shown.details).toContain('The gifts remote could not load GiftPage');
  expect(await layoutName(page)).toBe('no-footer');
  expect(await mainNav(page).isVisible()).toBe(true);
  return shown.details ?? '';
}

test.describe('an untampered remote', () => {
  test('its scripts are preloaded and loaded with their integrity, each fetched once, and the page renders', async ({
    page,
    watch,
    gift,
  }) => {
    const requests = await requestsDuring(page, async () => {
      expect(await visit(page, giftPath(gift))).toBe(200);
      await giftHeading(page).waitFor();
    });
    const preloads = await page.$$eval('link[rel="preload"][as="script"]', (links) =>
      links.map((link) => ({
        href: (link as HTMLLinkElement).href,
        integrity: link.getAttribute('integrity'),
        crossorigin: link.getAttribute('crossorigin'),
      })),
    );
    const entry = `${GIFTS_ORIGIN}/remoteEntry.js`;
    expect(preloads.map((preload) => preload.href)).toContain(entry);
    expect(preloads.some((preload) => preload.href.includes('__federation_expose_GiftPage.'))).toBe(true);
    for (const preload of preloads) {
      expect(preload.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
      expect(preload.crossorigin).toBe('');
    }
    // The runtime's script matched the preload (same integrity, same CORS mode): one download.
    expect(requests.filter((url) => url === entry)).toHaveLength(1);
    expect(watch.problems()).toEqual([]);
    expect(reportLoads('untampered /gifts/{id}', watch)).toBe(1);
  });
});

/**
 * The host's server rendering no page with its data: the gift page is drawn by its remote in the
 * browser, as when the API does not answer the host's server in time, so a refused remote shows
 * its error (docs/decisions/0028-data-pages-rendered-by-the-host-server.md). Rendered with its
 * data, the page would keep its text, as a prerendered page does (prerender.spec.ts).
 */
const NO_PAGE_DATA = { PAGE_DATA_TIMEOUT_MS: '0' };

test.describe('a tampered remote', () => {
  let folder: string;

  test.beforeAll(async () => {
    await restartServer('host', { env: NO_PAGE_DATA });
  });

  // Each test's visitor is a fresh browser context, whose cache nothing of another test reaches
  // (the browser keeps what it was sent for an immutable chunk, tampered bytes included); the
  // cache is emptied all the same, so the test does not depend on it.
  test.beforeEach(async ({ context, page }) => {
    folder = tempFolder('gifts-tampered');
    copyBuild(GIFTS_DIST, folder);
    await clearHttpCache(context, page);
  });

  test.afterAll(async () => {
    await restartServer('gifts', { env: {} });
    await restartServer('host', { env: {} });
    removeRedeployFolders();
  });

  test('a remoteEntry.js whose bytes differ is never run: the in-layout error with "Try again", at most one reload', async ({
    page,
    watch,
    gift,
  }) => {
    const entryFile = join(folder, 'remoteEntry.js');
    const original = readFileSync(entryFile);
    writeFileSync(entryFile, `${original.toString()}\n;window.__tamperedEntryRan = true;\n`);
    await restartServer('gifts', { env: { STATIC_ROOT: folder } });

    expect(await visit(page, giftPath(gift))).toBe(200);
    await expectGiftsRemoteError(page);
    expect(await ran(page, '__tamperedEntryRan')).toBe(false);
    expect(refusedForIntegrity(watch)).toContain(`${GIFTS_ORIGIN}/remoteEntry.js`);
    // The reload guard reloads once at most; then the error stays.
    const loads = reportLoads('tampered remoteEntry.js', watch);
    expect(loads).toBeGreaterThanOrEqual(1);
    expect(loads).toBeLessThanOrEqual(2);
    expect(watch.pageErrors).toEqual([]);

    // The remote's files are put right: "Try again" renders the page in place.
    writeFileSync(entryFile, original);
    watch.reset();
    await retryButton(page).click();
    await giftHeading(page).waitFor();
    expect(await errorPage(page).count()).toBe(0);
    expect(await ran(page, '__tamperedEntryRan')).toBe(false);
    expect(reportLoads('remoteEntry.js put right, "Try again"', watch)).toBe(0);
  });

  test('a chunk whose bytes differ is never run: the in-layout error with "Try again", at most one reload', async ({
    page,
    watch,
    gift,
  }) => {
    const chunk = exposeChunk(folder, 'GiftPage');
    const chunkFile = join(folder, chunk);
    writeFileSync(chunkFile, `window.__tamperedChunkRan = true;\n${readFileSync(chunkFile, 'utf8')}`);
    await restartServer('gifts', { env: { STATIC_ROOT: folder } });

    expect(await visit(page, giftPath(gift))).toBe(200);
    const details = await expectGiftsRemoteError(page);
    // The entry passed its check and ran; its own chunk loading refused the chunk.
    expect(details).toContain(chunk);
    expect(await ran(page, '__tamperedChunkRan')).toBe(false);
    expect(refusedForIntegrity(watch)).toContain(`${GIFTS_ORIGIN}/${chunk}`);
    const loads = reportLoads('tampered chunk', watch);
    expect(loads).toBeGreaterThanOrEqual(1);
    expect(loads).toBeLessThanOrEqual(2);
    expect(watch.pageErrors).toEqual([]);
  });

  test("a chunk the remote's own runtime has no digest for is refused, said in the console, never run", async ({
    page,
    watch,
  }) => {
    // On the host's pages the host loads a remote's pages' chunks itself, with the manifest's
    // digests (above); a chunk the remote's own runtime loads is checked by that runtime. The
    // remote's standalone page is run by that runtime alone: its build here lost every digest.
    const runtime = readdirSync(folder).find((file) => /^main\.[^.]+\.js$/.test(file)) as string;
    const runtimeFile = join(folder, runtime);
    const withDigests = readFileSync(runtimeFile, 'utf8');
    // The digests of its map of chunks (`id:"sha384-…"`), not the one it refuses with.
    const withoutDigests = withDigests.replace(/(\b\d+:)"sha384-[A-Za-z0-9+/]{64}"/g, '$1""');
    expect(withoutDigests).not.toBe(withDigests);
    writeFileSync(runtimeFile, withoutDigests);
    await restartServer('gifts', { env: { STATIC_ROOT: folder } });

    const said = page.waitForEvent('console', (message) => NO_DIGEST.test(message.text()));
    await page.goto(`${GIFTS_ORIGIN}/`);
    const chunkUrl = NO_DIGEST.exec((await said).text())?.[1];
    expect(chunkUrl).toMatch(new RegExp(`^${GIFTS_ORIGIN}/[^/]+\\.js$`));
    // Chromium's own refusal of its bytes (reported through the DevTools log, not as a console call).
    await expect.poll(() => refusedForIntegrity(watch)).toContain(chunkUrl);
    // The shell never started: its start waits on the refused chunk, whose load failed.
    expect(await page.locator('#root').innerText()).toBe('');
    expect(watch.pageErrors.length).toBeGreaterThan(0);
    for (const error of watch.pageErrors) expect(error).toMatch(/^ChunkLoadError: Loading chunk \S+ failed\./);
  });
});

test.describe('the origins remotes may come from', () => {
  test.afterAll(async () => {
    if (!runningServer('host')) await startServer('host', { env: {} });
    else await restartServer('host', { env: {} });
  });

  test('a remote URL outside REMOTE_ORIGINS: the host refuses to start, naming the URL and the variables', async () => {
    const allowed = `${GIFTS_ORIGIN},${originOf('redeem')}`;
    await stopServer('host');
    try {
      await expect(startServer('host', { env: { REMOTE_ORIGINS: allowed } })).rejects.toThrow(
        /host server exited \(code 1\) before serving/,
      );
      expect(logSinceLastStart(logFileOf('host'), 'host')).toContain(
        `[host] cannot start: Invalid runtime configuration: "remotes.content" ${manifestUrlOf('content')} ` +
          `is not at an allowed remote origin ("remoteOrigins": ${GIFTS_ORIGIN}, ${originOf('redeem')}) ` +
          '(remotes.content is set by REMOTE_CONTENT_URL; remoteOrigins is set by REMOTE_ORIGINS)',
      );
    } finally {
      if (!runningServer('host')) await startServer('host', { env: {} });
    }
  });

  test('with every remote inside REMOTE_ORIGINS, the pages work as before', async ({ page, watch, gift }) => {
    const allowed = [GIFTS_ORIGIN, originOf('redeem'), originOf('content')];
    await restartServer('host', { env: { REMOTE_ORIGINS: allowed.join(',') } });
    const config = await httpGetJson<{ remoteOrigins?: string[] }>(`${HOST_ORIGIN}/config.json`);
    expect(config.remoteOrigins).toEqual(allowed);
    expect(await visit(page, giftPath(gift))).toBe(200);
    await giftHeading(page).waitFor();
    expect(watch.problems()).toEqual([]);
  });

  test('a configuration in the page naming a remote outside its remoteOrigins: the app stops and tells the visitor which address', async ({
    page,
    watch,
    gift,
  }) => {
    await restartServer('host', { env: {} });
    // The server refuses such a configuration (above); this is the page's own check of one changed on the way.
    await page.route(`${HOST_ORIGIN}${giftPath(gift)}`, async (route: Route) => {
      const html = await (await route.fetch()).text();
      await route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: html.replace(
          /(<script type="application\/json" id="gift-box-config">)([\s\S]*?)(<\/script>)/,
          (_all, open: string, json: string, close: string) =>
            `${open}${JSON.stringify({ ...JSON.parse(json), remoteOrigins: [originOf('redeem'), originOf('content')] })}${close}`,
        ),
      });
    });
    expect(await visit(page, giftPath(gift))).toBe(200);
    const error = errorPage(page);
    await error.waitFor();
    expect((await error.locator('.p-error__code').innerText()).trim()).toBe('500');
    expect(await error.locator('.p-error__message').innerText()).toBe(
      `This site is set up to load part of its pages from an address it does not trust (${manifestUrlOf('gifts')}), ` +
        "so it loaded nothing from there. Please let the site's team know.",
    );
    // The technical message is in the console.
    expect(
      watch.consoleErrors.some((text) => text.includes(`"remotes.gifts" ${manifestUrlOf('gifts')} is not at`)),
    ).toBe(true);
    // Nothing of the refused remote ran (the host's HTML may have preloaded its entry: fetched, not
    // run): its container never appeared.
    expect(await page.evaluate(() => 'gifts' in window)).toBe(false);
    expect(reportLoads('remote outside remoteOrigins in the page', watch)).toBe(1);
    expect(watch.pageErrors).toEqual([]);
  });

  test("a manifest that points the remote's scripts at another origin: refused, nothing asked of that origin", async ({
    page,
    watch,
    gift,
  }) => {
    await restartServer('host', { env: NO_PAGE_DATA });
    // The same server under another name: genuine files, at an origin the configuration does not allow.
    const elsewhere = `http://127.0.0.1:${TEST_PORTS.gifts}`;
    await page.route(manifestUrlOf('gifts'), async (route: Route) => {
      const manifest = (await (await route.fetch()).json()) as { metaData: Record<string, unknown> };
      manifest.metaData.publicPath = `${elsewhere}/`;
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(manifest) });
    });
    const requests = await requestsDuring(page, async () => {
      expect(await visit(page, giftPath(gift))).toBe(200);
      const details = await expectGiftsRemoteError(page);
      expect(details).toContain(`the host refused ${elsewhere}/remoteEntry.js`);
      expect(details).toContain(`${elsewhere} is not an allowed remote origin`);
    });
    expect(requests.filter((url) => url.startsWith(elsewhere))).toEqual([]);
    expect(reportLoads('manifest pointing elsewhere', watch)).toBeLessThanOrEqual(2);
    expect(watch.pageErrors).toEqual([]);
  });
});
