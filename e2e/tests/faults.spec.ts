/**
 * Fault injection: a remote that is down, hangs or is misconfigured, failing build and content
 * files, the retries before the reload guard, and a page that fails while rendering. Each
 * scenario counts document loads (a reload loop or a missing reload shows there). The file stops
 * and restarts servers: it has a worker and servers of its own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request, Route } from '@playwright/test';
import {
  errorPage,
  followLink,
  layoutName,
  mainHeading,
  mainNav,
  navLink,
  visit,
  waitForRenderedPage,
} from '../support/app-page';
import {
  closedPort,
  fetchManifest,
  loadingIndicator,
  logSinceLastStart,
  reportLoads,
  retryButton,
  waitForRetryableError,
  type ShownError,
} from '../support/faults';
import { expect, test } from '../support/fixtures';
import type { PageWatch } from '../support/browser';
import { logFileOf, restartServer, runningServer, startServer, stopServer } from '../support/servers';
import { HOST_ORIGIN, REMOTE_NAMES, manifestUrlOf, originOf } from '../support/test-env';

/** A `remotes` section naming every remote, each at `url(remote)`. */
const everyRemote = (url: (remote: (typeof REMOTE_NAMES)[number]) => string) =>
  Object.fromEntries(REMOTE_NAMES.map((remote) => [remote, url(remote)]));

/** What the browser logs itself for a request that failed (a refused connection, a 4xx/5xx). */
const RESOURCE_ERROR = /^Failed to load resource: /;

// Servers of its own, started with the suite's settings: this file stops and restarts them. The
// groups that need the host as started come first; each later one restarts it with the settings
// it needs and leaves it so (the next file's server set restores it: support/servers.ts).
test.use({ serverOptions: { servers: {} } });

// A route still holding a request when the test ends is no failure of the test.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

/** Console errors that are not the browser's own note on a failed request from `origin`. */
function problemsBesides(watch: PageWatch, origin: string): string[] {
  const allowed = (text: string) => RESOURCE_ERROR.test(text) && text.includes(`(${origin}/`);
  return [...watch.consoleErrors.filter((text) => !allowed(text)), ...watch.pageErrors, ...watch.dialogs];
}

function expectPartUnavailable(shown: ShownError): void {
  expect(shown).toMatchObject({
    code: undefined,
    title: 'This part of the site is unavailable right now',
    message: 'It should be back shortly. Please try again in a moment.',
    detailsOpen: false,
    documentTitle: 'Unavailable right now · Gift Box',
  });
}

async function expectInLayoutRemoteError(page: Page, watch: PageWatch, layout: string, remote: string): Promise<void> {
  const shown = await waitForRetryableError(page);
  // Plain words for the visitor; the remote, module and cause in the console and a closed "Details".
  expectPartUnavailable(shown);
  expect(shown.details).toContain(`The ${remote} remote could not load`);
  expect(watch.consoleErrors.some((text) => text.includes(`The ${remote} remote could not load`))).toBe(true);
  expect(await layoutName(page)).toBe(layout);
  // Inside the layout: the site's navigation is still there, not an app-wide error screen.
  expect(await mainNav(page).isVisible()).toBe(true);
  expect(await errorPage(page).getByRole('link', { name: 'Back to home' }).isVisible()).toBe(true);
}

test.describe('remote down', () => {
  test.afterAll(async () => {
    if (!runningServer('gifts')) await startServer('gifts');
  });

  test('gift and game pages show the in-layout error after at most one reload; the rest works; back up, "Try again" renders', async ({
    page,
    watch,
    gift,
  }) => {
    await stopServer('gifts');
    // The host starts while a remote is down: it needs none of them to serve.
    await restartServer('host', { env: {} });
    const giftsOrigin = originOf('gifts');

    for (const [path, check] of [
      ['/', async () => void (await waitForRenderedPage(page))],
      ['/about', async () => void (await waitForRenderedPage(page))],
      [
        `/redeem/${gift.redeemId}`,
        async () => void (await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor()),
      ],
    ] as const) {
      watch.reset();
      expect(await visit(page, path)).toBe(200);
      await check();
      expect(reportLoads(`remote down ${path.replace(gift.redeemId, '{id}')}`, watch)).toBe(1);
      expect(problemsBesides(watch, giftsOrigin)).toEqual([]);
    }

    watch.reset();
    expect(await visit(page, `/gifts/${gift.giftId}`)).toBe(200);
    await expectInLayoutRemoteError(page, watch, 'no-footer', 'gifts');
    const giftLoads = reportLoads('remote down /gifts/{id}', watch);
    expect(giftLoads).toBeGreaterThanOrEqual(1);
    expect(giftLoads).toBeLessThanOrEqual(2);
    expect(watch.pageErrors).toEqual([]);

    watch.reset();
    expect(await visit(page, '/game')).toBe(200);
    await expectInLayoutRemoteError(page, watch, 'default', 'gifts');
    const gameLoads = reportLoads('remote down /game', watch);
    expect(gameLoads).toBeGreaterThanOrEqual(1);
    expect(gameLoads).toBeLessThanOrEqual(2);
    expect(watch.pageErrors).toEqual([]);

    // The remote is back: "Try again" renders the page in place, with no reload.
    await startServer('gifts');
    watch.reset();
    await retryButton(page).click();
    // The remote's page in place of the error: found by structure, not by the gifts team's copy.
    await expect(errorPage(page)).toHaveCount(0);
    await waitForRenderedPage(page, { headingOnly: true });
    // And the next navigation to a page of that remote renders too.
    await page.getByRole('button', { name: 'Box 2' }).click();
    await page.getByRole('link', { name: 'Open your gift' }).click();
    await page.waitForURL(/\/gifts\/[A-Za-z0-9_-]{24}$/);
    await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
    expect(reportLoads('remote down, after "Try again" with the remote back', watch)).toBe(0);
    expect(watch.pageErrors).toEqual([]);
  });
});

test.describe('a page that fails while rendering', () => {
  test('the 500 page\'s "Try again" renders the page once the fault is gone, though its code is already loaded', async ({
    page,
    watch,
    gift,
  }) => {
    // A fault in the gift page's own rendering, for as long as the test wants: its dates are
    // written with Intl.DateTimeFormat. Its code is loaded, so a retry's loader ends at once,
    // before React has drawn the retry's loading state.
    await page.addInitScript(() => {
      const proto = Intl.DateTimeFormat.prototype;
      const format = Object.getOwnPropertyDescriptor(proto, 'format')?.get;
      Object.assign(window, { failDates: true });
      Object.defineProperty(proto, 'format', {
        get(this: Intl.DateTimeFormat) {
          if ((window as unknown as { failDates: boolean }).failDates) throw new Error('dates are broken');
          return format?.call(this);
        },
      });
    });
    expect(await visit(page, `/gifts/${gift.giftId}`)).toBe(200);
    const shown = await waitForRetryableError(page);
    expect(shown).toMatchObject({ code: '500', documentTitle: 'Something went wrong · Gift Box' });
    expect(await layoutName(page)).toBe('no-footer');

    await page.evaluate(() => Object.assign(window, { failDates: false }));
    await retryButton(page).click();
    await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
    expect(await errorPage(page).count()).toBe(0);
    expect(page.url()).toBe(`${HOST_ORIGIN}/gifts/${gift.giftId}`);
    expect(reportLoads('a page failing while rendering, then "Try again"', watch)).toBe(1);
    expect(watch.pageErrors).toEqual([]);
  });
});

test.describe('build manifest and content payload failures', () => {
  test('builds/meta answering 500: only a console message, the page works', async ({ page, watch }) => {
    await page.route('**/_app/builds/meta/**', (route: Route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'boom' }),
    );
    const metaResponse = page.waitForResponse((response) => response.url().includes('/_app/builds/meta/'));
    const warning = page.waitForEvent('console', (message) =>
      message.text().includes('Fetching the build manifest failed'),
    );
    expect(await visit(page, '/')).toBe(200);
    await waitForRenderedPage(page);
    expect((await metaResponse).status()).toBe(500);
    expect((await warning).type()).toBe('warning');

    await followLink(page, navLink(page, 'About'), '/about');
    expect(reportLoads('meta 500', watch)).toBe(1);
    expect(problemsBesides(watch, HOST_ORIGIN)).toEqual([]);
    expect(watch.consoleErrors.every((text) => text.includes('/_app/builds/meta/'))).toBe(true);
  });

  test('builds/meta never answering: the page works', async ({ page, watch }) => {
    const held: Route[] = [];
    await page.route('**/_app/builds/meta/**', (route: Route) => void held.push(route));
    const metaRequest = page.waitForRequest((request) => request.url().includes('/_app/builds/meta/'));
    expect(await visit(page, '/')).toBe(200);
    await waitForRenderedPage(page);
    await metaRequest;
    await followLink(page, navLink(page, 'Terms'), '/terms');
    expect(held.length).toBe(1);
    expect(reportLoads('meta hanging', watch)).toBe(1);
    expect(watch.problems()).toEqual([]);
  });

  test('a missing content payload shows a retryable error; "Try again" renders it once it is back', async ({
    page,
    watch,
  }) => {
    const payload = `${originOf('content')}/payload/about.json`;
    await page.route(payload, (route: Route) =>
      route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }),
    );
    // A first load of /about has its text in the page; a navigation to it fetches the payload.
    expect(await visit(page, '/')).toBe(200);
    await waitForRenderedPage(page);
    await navLink(page, 'About').click();
    const alert = page.locator('main [role="alert"]');
    await alert.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await alert.innerText()).toContain('HTTP 404');
    expect(await layoutName(page)).toBe('default');
    expect(await mainNav(page).isVisible()).toBe(true);

    await page.unroute(payload);
    const refetched = page.waitForResponse(payload);
    await alert.getByRole('button', { name: 'Try again' }).click();
    expect((await refetched).status()).toBe(200);
    await waitForRenderedPage(page);
    expect(await alert.count()).toBe(0);
    expect(reportLoads('payload missing', watch)).toBe(1);
    expect(watch.pageErrors).toEqual([]);
  });
});

/**
 * The host's server rendering no page with its data: the gift page is drawn by its remote in the
 * browser, as when the API does not answer the host's server in time
 * (docs/decisions/0028-data-pages-rendered-by-the-host-server.md). Rendered with its data, a gift
 * page whose remote fails keeps its text, as a prerendered page does (prerender.spec.ts).
 */
const NO_PAGE_DATA = { PAGE_DATA_TIMEOUT_MS: '0' };

test.describe('retries before the reload guard', () => {
  test.beforeAll(async () => {
    await restartServer('host', { env: NO_PAGE_DATA });
  });

  interface ChunkRequest {
    document: number;
    at: number;
  }

  test('a chunk that always fails is tried 3 times per page load (1 + 2 retries, after any preload), then one reload, then the in-layout error', async ({
    page,
    watch,
    gift,
  }) => {
    // The gift page: a prerendered page (the game, the content pages) keeps its text instead (prerender.spec.ts).
    const manifestUrl = manifestUrlOf('gifts');
    const manifest = await fetchManifest(manifestUrl);
    const file = manifest.exposes
      ?.find((entry) => entry.name === 'GiftPage')
      ?.assets?.js?.sync?.find((name) => name.startsWith('__federation_expose_'));
    expect(file).toBeDefined();
    const chunkUrl = new URL(file as string, manifestUrl).toString();
    const requests: ChunkRequest[] = [];
    /** The page's telemetry asking once for the failed chunk again (a fetch, not a load of it). */
    const diagnoses: number[] = [];
    page.on('request', (request: Request) => {
      if (request.url() !== chunkUrl) return;
      if (request.resourceType() === 'fetch') diagnoses.push(watch.documentLoads());
      else requests.push({ document: watch.documentLoads(), at: Date.now() });
    });
    await page.route(chunkUrl, (route: Route) =>
      route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }),
    );

    const giftPath = `/gifts/${gift.giftId}`;
    expect(await visit(page, giftPath)).toBe(200);
    const shown = await waitForRetryableError(page);
    expectPartUnavailable(shown);
    expect(shown.details).toContain('The gifts remote could not load GiftPage');
    expect(shown.details).toContain(chunkUrl);
    expect(await layoutName(page)).toBe('no-footer');
    const loads = reportLoads('chunk retry', watch);
    // Per document load: the runtime may preload the chunk once from the manifest, then the
    // loads proper are 1 + 2 retries, the last three requests.
    const summary = [1, 2].map((document) => {
      const own = requests.filter((request) => request.document === document);
      const attempts = own.slice(-3);
      return {
        document,
        requests: own.length,
        gapsMs: attempts.slice(1).map((request, index) => request.at - (attempts[index] as ChunkRequest).at),
      };
    });
    console.log('[chunk retry] requests of the failing chunk per document load:', JSON.stringify(summary));
    expect(loads).toBe(2);
    expect(watch.documents.map((load) => load.url)).toEqual([`${HOST_ORIGIN}${giftPath}`, `${HOST_ORIGIN}${giftPath}`]);
    for (const { requests: count, gapsMs } of summary) {
      expect(count).toBeGreaterThanOrEqual(3);
      expect(count).toBeLessThanOrEqual(4);
      // After 250 ms and 750 ms (less a little for the time events take to arrive here).
      expect(gapsMs[0]).toBeGreaterThanOrEqual(200);
      expect(gapsMs[1]).toBeGreaterThanOrEqual(700);
    }
    expect(requests.filter((request) => request.document > 2)).toEqual([]);
    // Telemetry's one question per page, to tell the integrity check from the server's failure.
    for (const document of [1, 2]) expect(diagnoses.filter((at) => at === document).length).toBeLessThanOrEqual(1);
    const guard = await page.evaluate(() => window.sessionStorage.getItem('p-reload-guard'));
    expect(JSON.parse(guard ?? 'null')).toEqual({ path: giftPath, expires: expect.any(Number) });

    // The chunk is back: "Try again" renders the page without another load.
    await page.unroute(chunkUrl);
    await retryButton(page).click();
    await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
    expect(await errorPage(page).count()).toBe(0);
    expect(watch.documentLoads()).toBe(2);
  });
});

test.describe('a hanging remote entry', () => {
  const TIMEOUT_MS = 3000;

  test.beforeAll(async () => {
    await restartServer('host', { env: { REMOTE_TIMEOUT_MS: String(TIMEOUT_MS), ...NO_PAGE_DATA } });
  });

  async function holdGiftsEntry(page: Page): Promise<Route[]> {
    const held: Route[] = [];
    await page.route(`${originOf('gifts')}/remoteEntry.js*`, (route: Route) => void held.push(route));
    return held;
  }

  /**
   * From the home page, starts loading /game from the header, then goes to /about instead;
   * gives the about page's heading.
   */
  async function leaveHangingGameForAbout(page: Page): Promise<string> {
    await holdGiftsEntry(page);
    expect(await visit(page, '/')).toBe(200);
    await waitForRenderedPage(page);

    await navLink(page, 'Play').click();
    await loadingIndicator(page).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    return (await followLink(page, navLink(page, 'About'), '/about')).heading;
  }

  test('the site stays usable while /game hangs: the loading indicator shows, header navigation to /about works', async ({
    page,
    watch,
  }) => {
    await leaveHangingGameForAbout(page);
    expect(await layoutName(page)).toBe('default');
    expect(reportLoads('hanging remote, navigated to /about', watch)).toBe(1);
    expect(watch.pageErrors).toEqual([]);
  });

  test('the abandoned /game load, when it fails, does not take the visitor away from /about', async ({
    page,
    watch,
  }) => {
    const navigations: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations.push(request.url());
    });
    const aboutHeading = await leaveHangingGameForAbout(page);
    const left = navigations.length;
    // The time window under test: the abandoned load fails within two timeouts of the click on
    // Play (a prefetch of the entry it waits for, then its own) and a retry pause. Nothing may
    // follow it: no reload, no full load of /game. The signal that the window has passed is a
    // timer of the page's own, set now: it ends 2.5 s after the abandoned load's last timer (two
    // timeouts after the click on Play, which came before now), on the page's clock, so a page
    // slowed down by a busy machine is waited for. (A document that replaced this one ends the
    // wait early; the checks below say which.)
    await page
      .evaluate((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)), 2 * TIMEOUT_MS + 2500)
      .catch(() => undefined);
    const loads = reportLoads('hanging remote, after the abandoned /game load failed', watch);
    expect(navigations.slice(left)).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/about');
    // Still the about page: the game never replaced it.
    await expect(mainHeading(page)).toHaveText([aboutHeading]);
    expect(loads).toBe(1);
    // The abandoned load did fail in that window: the federation runtime gave up on the hanging
    // entry (it removes its script element at its timeout), so none is left waiting.
    const entry = `${originOf('gifts')}/remoteEntry.js`;
    expect(
      await page.evaluate(
        (url) => [...document.scripts].map((script) => script.src).filter((src) => src.startsWith(url)),
        entry,
      ),
    ).toEqual([]);
  });

  test('a direct visit shows the loading indicator, then after the timeout one reload, then the error with retry', async ({
    page,
    watch,
    gift,
  }) => {
    await holdGiftsEntry(page);
    const started = Date.now();
    // The gift page: the game is prerendered, its text on screen while its remote hangs (prerender.spec.ts).
    expect(await visit(page, `/gifts/${gift.giftId}`)).toBe(200);
    await loadingIndicator(page).waitFor();
    const shown = await waitForRetryableError(page, 4 * TIMEOUT_MS + 5000);
    const elapsed = Date.now() - started;
    console.log('[hanging remote] error shown after ms:', elapsed);
    expectPartUnavailable(shown);
    expect(shown.details).toContain(`took longer than ${TIMEOUT_MS} ms`);
    expect(await layoutName(page)).toBe('no-footer');
    expect(reportLoads('hanging remote, direct visit', watch)).toBe(2);
    // Bounded: two timeouts (before and after the one reload), not the default 10 s each.
    expect(elapsed).toBeGreaterThanOrEqual(2 * TIMEOUT_MS);
    expect(elapsed).toBeLessThan(4 * TIMEOUT_MS + 5000);

    // No loop, and the rest of the site works.
    await followLink(page, navLink(page, 'About'), '/about');
    expect(watch.documentLoads()).toBe(2);
    expect(watch.pageErrors).toEqual([]);
  });
});

test.describe('misconfiguration', () => {
  let configDir: string;

  test.beforeAll(() => {
    configDir = mkdtempSync(join(tmpdir(), 'e2e-config-'));
  });

  test.afterAll(() => {
    rmSync(configDir, { recursive: true, force: true });
  });

  test('a remote URL pointing nowhere: /game shows the remote error state, / still works', async ({ page, watch }) => {
    const port = await closedPort();
    await restartServer('host', { env: { REMOTE_GIFTS_URL: `http://localhost:${port}/mf-manifest.json` } });
    expect(await visit(page, '/game')).toBe(200);
    await expectInLayoutRemoteError(page, watch, 'default', 'gifts');
    const loads = reportLoads('remote URL nowhere /game', watch);
    expect(loads).toBeLessThanOrEqual(2);

    watch.reset();
    expect(await visit(page, '/')).toBe(200);
    await waitForRenderedPage(page);
    expect(reportLoads('remote URL nowhere /', watch)).toBe(1);
    expect(watch.pageErrors).toEqual([]);
  });

  test('a remote manifest that is not JSON: the gift page shows the remote error state', async ({
    page,
    watch,
    gift,
  }) => {
    await restartServer('host', { env: NO_PAGE_DATA });
    await page.route(manifestUrlOf('gifts'), (route: Route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: 'not json' }),
    );
    expect(await visit(page, `/gifts/${gift.giftId}`)).toBe(200);
    await expectInLayoutRemoteError(page, watch, 'no-footer', 'gifts');
    expect(reportLoads('manifest not JSON /gifts/{id}', watch)).toBeLessThanOrEqual(2);
    expect(watch.pageErrors).toEqual([]);
  });

  test("a page that does not provide the federation's bundler runtime (a host built before its remotes): the remote error state, the cause in the console", async ({
    page,
    watch,
    gift,
  }) => {
    await restartServer('host', { env: NO_PAGE_DATA });
    // What a host built before the remotes' containers took the bundler runtime from the page does.
    await page.addInitScript(() => {
      Object.defineProperty(globalThis, '_FEDERATION_BUNDLER_RUNTIME', { get: () => undefined, set: () => undefined });
    });
    expect(await visit(page, `/gifts/${gift.giftId}`)).toBe(200);
    await expectInLayoutRemoteError(page, watch, 'no-footer', 'gifts');
    expect(reportLoads('no bundler runtime /gifts/{id}', watch)).toBeLessThanOrEqual(2);
    expect(watch.pageErrors.join('\n')).toContain('The federation bundler runtime is not on this page');
  });

  test('an invalid configuration file: the host refuses to start, naming the key', async () => {
    const file = join(configDir, 'invalid.json');
    writeFileSync(
      file,
      JSON.stringify({
        remotes: everyRemote(manifestUrlOf),
        apiBaseUrl: 'nope',
      }),
    );
    await stopServer('host');
    try {
      await expect(startServer('host', { env: { RUNTIME_CONFIG_FILE: file } })).rejects.toThrow(
        /host server exited \(code 1\) before serving/,
      );
      const log = logSinceLastStart(logFileOf('host'), 'host');
      expect(log).toContain(
        `[host] cannot start: Invalid runtime configuration: "apiBaseUrl" must be an http(s) URL (in ${file})`,
      );
    } finally {
      if (!runningServer('host')) await startServer('host', { env: {} });
    }
  });

  /** The host's page as sent, with its configuration element replaced by `inline`, or removed. */
  async function changeConfigOnTheWay(page: Page, inline: string | undefined): Promise<void> {
    await page.route(`${HOST_ORIGIN}/`, async (route: Route) => {
      const html = await (await route.fetch()).text();
      const element = /(<script type="application\/json" id="gift-box-config">)[\s\S]*?(<\/script>)/;
      await route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: html.replace(element, (_all, open: string, close: string) =>
          inline === undefined ? '' : `${open}${inline}${close}`,
        ),
      });
    });
  }

  async function expectConfigErrorPage(page: Page, watch: PageWatch, message: RegExp): Promise<void> {
    const error = errorPage(page);
    await error.waitFor();
    expect((await error.locator('.p-error__code').innerText()).trim()).toBe('500');
    expect(await error.locator('.p-error__message').innerText()).toMatch(message);
    expect(await error.getByRole('link', { name: 'Back to home' }).isVisible()).toBe(true);
    expect(reportLoads('invalid runtime configuration', watch)).toBe(1);
    expect(watch.pageErrors).toEqual([]);
  }

  for (const [what, body, message] of [
    [
      'a wrong value',
      JSON.stringify({ remotes: everyRemote(() => 'http://x.example/m.json'), apiBaseUrl: 'nope' }),
      /"apiBaseUrl" must be an http\(s\) URL/,
    ],
    ['a missing key', JSON.stringify({ apiBaseUrl: 'http://x.example' }), /"remotes" is missing/],
    ['a body that is not JSON', '{"remotes":', /\/config\.json is not valid JSON/],
  ] as const) {
    test(`an invalid /config.json fetched by a page without the configuration (${what}): the page shows 500 and names the problem`, async ({
      page,
      watch,
    }) => {
      // The server refuses to start with one (above); a page served without the configuration (an
      // integrator's static host) fetches /config.json and checks it with the schema's own chunk.
      await changeConfigOnTheWay(page, undefined);
      await page.route(`${HOST_ORIGIN}/config.json`, (route: Route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body }),
      );
      const chunks: string[] = [];
      page.on('request', (request) => {
        if (/\/config-check\.[0-9a-f]+\.js$/.test(request.url())) chunks.push(request.url());
      });
      expect(await visit(page, '/')).toBe(200);
      await expectConfigErrorPage(page, watch, message);
      expect(chunks).toHaveLength(1);
    });
  }

  test('a configuration in the page that is not JSON (changed on the way): the page shows 500 and says so', async ({
    page,
    watch,
  }) => {
    // What the host's server wrote is taken as it is; only what cannot be a configuration at all is refused.
    await changeConfigOnTheWay(page, '{"remotes":');
    expect(await visit(page, '/')).toBe(200);
    await expectConfigErrorPage(page, watch, /The runtime configuration in the page is not valid JSON/);
  });
});
