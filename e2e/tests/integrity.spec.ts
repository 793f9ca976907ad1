/**
 * Issue 14, item 3: remote code verified before it runs. Every script of a remote carries the
 * sha384 integrity its build recorded; a remoteEntry.js or a chunk whose bytes differ is never
 * run, and the route shows the remote's in-layout error without a reload loop. Remotes come only
 * from the allowed origins (REMOTE_ORIGINS): a remote URL outside them stops the host's server at
 * start and the app in the browser, and a manifest that points elsewhere is refused.
 *
 * The tampered remote is a copy of the gifts remote's build, served from a temporary folder
 * (STATIC_ROOT), its manifest untouched: what a compromised file store or CDN would serve.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Route } from 'playwright-core';
import { errorPage, layoutName, mainNav, visit } from '../support/app-page';
import { httpGetJson } from '../support/http';
import { logSinceLastStart, reportLoads, retryButton, waitForRetryableError } from '../support/faults';
import { copyBuild, exposeChunk, removeRedeployFolders, tempFolder } from '../support/redeploy';
import { logFileOf, restartServer, runningServer, startServer, stopServer } from '../support/servers';
import { browserSuite } from '../support/suite';
import { HOST_ORIGIN, ROOT_DIR, TEST_PORTS, manifestUrlOf, originOf } from '../support/test-env';

const GIFTS_DIST = join(ROOT_DIR, 'remote-gifts', 'dist');
const GIFTS_ORIGIN = originOf('gifts');
/** What Chromium logs when it refuses a script for its integrity. */
const INTEGRITY_REFUSAL = /Failed to find a valid digest in the 'integrity' attribute for resource '([^']+)'/;

const suite = browserSuite({ withGift: true });

const giftPath = () => `/gifts/${suite.ids.giftId}`;
const giftHeading = () => suite.page.getByRole('heading', { name: /^Your gift(:|$)/ });

/** The scripts Chromium refused for their integrity, by URL. */
function refusedForIntegrity(): string[] {
  return suite.watch.consoleErrors.flatMap((text) => INTEGRITY_REFUSAL.exec(text)?.[1] ?? []);
}

/** Whether the page ran code that sets `flag`. */
function ran(flag: string): Promise<boolean> {
  return suite.page.evaluate((name) => (window as unknown as Record<string, unknown>)[name] === true, flag);
}

/** Requests the page sent, while `during` runs. */
async function requestsDuring(during: () => Promise<void>): Promise<string[]> {
  const urls: string[] = [];
  const record = (request: Request) => urls.push(request.url());
  suite.page.on('request', record);
  try {
    await during();
  } finally {
    suite.page.off('request', record);
  }
  return urls;
}

/**
 * A visitor who has none of the remote's files in the browser's cache: a content-hashed chunk the
 * browser already holds (immutable) is used from there, its genuine bytes, and never asked again.
 */
async function clearHttpCache(): Promise<void> {
  const cdp = await suite.browser.context.newCDPSession(suite.page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
}

/** The in-layout error of the gifts remote, in plain words, the cause under "Details". */
async function expectGiftsRemoteError(): Promise<string> {
  const shown = await waitForRetryableError(suite.page);
  expect(shown.title).toBe('This part of the site is unavailable right now');
  expect(shown.details).toContain('The gifts remote could not load GiftPage');
  expect(await layoutName(suite.page)).toBe('no-footer');
  expect(await mainNav(suite.page).isVisible()).toBe(true);
  return shown.details ?? '';
}

describe('an untampered remote', () => {
  test('its scripts are preloaded and loaded with their integrity, each fetched once, and the page renders', async () => {
    const requests = await requestsDuring(async () => {
      expect(await visit(suite.page, giftPath())).toBe(200);
      await giftHeading().waitFor();
    });
    const preloads = await suite.page.$$eval('link[rel="preload"][as="script"]', (links) =>
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
    expect(suite.watch.problems()).toEqual([]);
    expect(reportLoads('untampered /gifts/{id}', suite.watch)).toBe(1);
  });
});

describe('a tampered remote', () => {
  let folder: string;

  beforeEach(async () => {
    folder = tempFolder('gifts-tampered');
    copyBuild(GIFTS_DIST, folder);
    await clearHttpCache();
  });

  // The browser keeps what it was sent for an immutable chunk, tampered bytes included (and
  // refuses them again on every load): the tests after these get the genuine files.
  afterEach(clearHttpCache);

  afterAll(async () => {
    await restartServer('gifts', { env: {} });
    removeRedeployFolders();
  });

  test('a remoteEntry.js whose bytes differ is never run: the in-layout error with "Try again", at most one reload', async () => {
    const entryFile = join(folder, 'remoteEntry.js');
    const original = readFileSync(entryFile);
    writeFileSync(entryFile, `${original.toString()}\n;window.__tamperedEntryRan = true;\n`);
    await restartServer('gifts', { env: { STATIC_ROOT: folder } });

    expect(await visit(suite.page, giftPath())).toBe(200);
    await expectGiftsRemoteError();
    expect(await ran('__tamperedEntryRan')).toBe(false);
    expect(refusedForIntegrity()).toContain(`${GIFTS_ORIGIN}/remoteEntry.js`);
    // The reload guard reloads once at most; then the error stays.
    const loads = reportLoads('tampered remoteEntry.js', suite.watch);
    expect(loads).toBeGreaterThanOrEqual(1);
    expect(loads).toBeLessThanOrEqual(2);
    expect(suite.watch.pageErrors).toEqual([]);

    // The remote's files are put right: "Try again" renders the page in place.
    writeFileSync(entryFile, original);
    suite.watch.reset();
    await retryButton(suite.page).click();
    await giftHeading().waitFor();
    expect(await errorPage(suite.page).count()).toBe(0);
    expect(await ran('__tamperedEntryRan')).toBe(false);
    expect(reportLoads('remoteEntry.js put right, "Try again"', suite.watch)).toBe(0);
  });

  test('a chunk whose bytes differ is never run: the in-layout error with "Try again", at most one reload', async () => {
    const chunk = exposeChunk(folder, 'GiftPage');
    const chunkFile = join(folder, chunk);
    writeFileSync(chunkFile, `window.__tamperedChunkRan = true;\n${readFileSync(chunkFile, 'utf8')}`);
    await restartServer('gifts', { env: { STATIC_ROOT: folder } });

    expect(await visit(suite.page, giftPath())).toBe(200);
    const details = await expectGiftsRemoteError();
    // The entry passed its check and ran; its own chunk loading refused the chunk.
    expect(details).toContain(chunk);
    expect(await ran('__tamperedChunkRan')).toBe(false);
    expect(refusedForIntegrity()).toContain(`${GIFTS_ORIGIN}/${chunk}`);
    const loads = reportLoads('tampered chunk', suite.watch);
    expect(loads).toBeGreaterThanOrEqual(1);
    expect(loads).toBeLessThanOrEqual(2);
    expect(suite.watch.pageErrors).toEqual([]);
  });
});

describe('the origins remotes may come from', () => {
  afterAll(async () => {
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

  test('with every remote inside REMOTE_ORIGINS, the pages work as before', async () => {
    const allowed = [GIFTS_ORIGIN, originOf('redeem'), originOf('content')];
    await restartServer('host', { env: { REMOTE_ORIGINS: allowed.join(',') } });
    const config = await httpGetJson<{ remoteOrigins?: string[] }>(`${HOST_ORIGIN}/config.json`);
    expect(config.remoteOrigins).toEqual(allowed);
    expect(await visit(suite.page, giftPath())).toBe(200);
    await giftHeading().waitFor();
    expect(suite.watch.problems()).toEqual([]);
  });

  test('a configuration in the page naming a remote outside its remoteOrigins: the app stops and tells the visitor which address', async () => {
    await restartServer('host', { env: {} });
    // The server refuses such a configuration (above); this is the page's own check of one changed on the way.
    await suite.page.route(`${HOST_ORIGIN}${giftPath()}`, async (route: Route) => {
      const page = await (await route.fetch()).text();
      route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: page.replace(
          /(<script type="application\/json" id="gift-box-config">)([\s\S]*?)(<\/script>)/,
          (_all, open: string, json: string, close: string) =>
            `${open}${JSON.stringify({ ...JSON.parse(json), remoteOrigins: [originOf('redeem'), originOf('content')] })}${close}`,
        ),
      });
    });
    expect(await visit(suite.page, giftPath())).toBe(200);
    const error = errorPage(suite.page);
    await error.waitFor();
    expect((await error.locator('.p-error__code').innerText()).trim()).toBe('500');
    expect(await error.locator('.p-error__message').innerText()).toBe(
      `This site is set up to load part of its pages from an address it does not trust (${manifestUrlOf('gifts')}), ` +
        "so it loaded nothing from there. Please let the site's team know.",
    );
    // The technical message is in the console.
    expect(
      suite.watch.consoleErrors.some((text) => text.includes(`"remotes.gifts" ${manifestUrlOf('gifts')} is not at`)),
    ).toBe(true);
    // Nothing of the refused remote ran (the host's HTML may have preloaded its entry: fetched, not
    // run): its container never appeared.
    expect(await suite.page.evaluate(() => 'gifts' in window)).toBe(false);
    expect(reportLoads('remote outside remoteOrigins in the page', suite.watch)).toBe(1);
    expect(suite.watch.pageErrors).toEqual([]);
  });

  test("a manifest that points the remote's scripts at another origin: refused, nothing asked of that origin", async () => {
    // The same server under another name: genuine files, at an origin the configuration does not allow.
    const elsewhere = `http://127.0.0.1:${TEST_PORTS.gifts}`;
    await suite.page.route(manifestUrlOf('gifts'), async (route: Route) => {
      const manifest = (await (await route.fetch()).json()) as { metaData: Record<string, unknown> };
      manifest.metaData.publicPath = `${elsewhere}/`;
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(manifest) });
    });
    const requests = await requestsDuring(async () => {
      expect(await visit(suite.page, giftPath())).toBe(200);
      const details = await expectGiftsRemoteError();
      expect(details).toContain(`the host refused ${elsewhere}/remoteEntry.js`);
      expect(details).toContain(`${elsewhere} is not an allowed remote origin`);
    });
    expect(requests.filter((url) => url.startsWith(elsewhere))).toEqual([]);
    expect(reportLoads('manifest pointing elsewhere', suite.watch)).toBeLessThanOrEqual(2);
    expect(suite.watch.pageErrors).toEqual([]);
  });
});
