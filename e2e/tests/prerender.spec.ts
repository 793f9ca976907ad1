/**
 * The host's server starts the page from its HTML: the runtime configuration inline, the
 * route's remote preloaded, and the content pages prerendered, so their text is on screen
 * before any script runs and the app takes the same markup over without a visible change.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request, Route } from '@playwright/test';
import { followLink, mainHeading, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { openSession, watchPage } from '../support/browser';
import { fetchManifest } from '../support/faults';
import { expect, test } from '../support/fixtures';
import { restartServer, stopServer } from '../support/servers';
import { HOST_ORIGIN, ROOT_DIR, manifestUrlOf, originOf } from '../support/test-env';

// A test stops the content remote: this file gets servers of its own (all of them, as the suite
// starts them).
test.use({ serverOptions: { servers: { host: { env: {} } } } });

const CONTENT_ORIGIN = originOf('content');

function payloadTitle(page: string): string {
  const file = join(ROOT_DIR, 'remote-content', 'dist', 'payload', `${page}.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { title: string }).title;
}

/** What the visitor sees before any script runs: the page in a context with JavaScript off. */
async function withoutScripts<T>(browser: Browser, run: (page: Page) => Promise<T>): Promise<T> {
  const noScripts = await openSession(browser, { javaScriptEnabled: false });
  try {
    const { page } = await noScripts.newPage();
    return await run(page);
  } finally {
    await noScripts.close();
  }
}

/** The performance mark that tells the layout-shift observer the test has stopped looking. */
const SETTLED_MARK = 'e2e-layout-settled';

interface ShiftWindow {
  layoutShifts: number[];
  layoutShiftsSettled?: boolean;
}

/**
 * Layout shifts the page has seen since it started (the Layout Instability API). The same
 * observer also watches performance marks: once it is handed SETTLED_MARK, it has been handed
 * every layout-shift entry queued before that mark (the browser delivers a page's entries to its
 * observers in the order they were queued), and it sets `layoutShiftsSettled`.
 */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript((settledMark) => {
    const target = window as unknown as ShiftWindow;
    const shifts: number[] = [];
    target.layoutShifts = shifts;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (entry.entryType === 'mark') {
          if (entry.name === settledMark) target.layoutShiftsSettled = true;
        } else if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    });
    observer.observe({ type: 'layout-shift', buffered: true });
    observer.observe({ type: 'mark' });
  }, SETTLED_MARK);
}

/**
 * Waits until the layout shifts of every frame drawn so far have reached the observer: two
 * animation frames (the second starts once the first has been laid out and painted, which is
 * when its shifts are measured), then a mark, and the observer's word that it has seen it.
 */
async function layoutShiftsSoFar(page: Page): Promise<number[]> {
  await page.evaluate(
    (settledMark) =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            performance.mark(settledMark);
            resolve();
          }),
        );
      }),
    SETTLED_MARK,
  );
  await page.waitForFunction(() => (window as unknown as ShiftWindow).layoutShiftsSettled === true);
  return page.evaluate(() => (window as unknown as ShiftWindow).layoutShifts);
}

/**
 * Holds back a remote's exposed module for `page`, so the page stays the server's markup until
 * the returned function lets it through.
 */
async function holdExposedModule(page: Page, remote: 'gifts' | 'redeem', module: string): Promise<() => Promise<void>> {
  const expose = (await fetchManifest(manifestUrlOf(remote))).exposes
    ?.find((entry) => entry.name === module)
    ?.assets?.js?.sync?.find((name) => name.startsWith('__federation_expose_'));
  const exposeUrl = new URL(expose ?? 'missing', manifestUrlOf(remote)).href;
  const held: Route[] = [];
  await page.route(exposeUrl, (route: Route) => void held.push(route));
  return async () => {
    for (const route of held) await route.continue();
    await page.unroute(exposeUrl);
  };
}

test.describe('a content page from the host server', () => {
  test('/, /about, /terms and /privacy-policy show their text, in the site frame, before any script runs', async ({
    browser,
  }) => {
    // One tab without scripts visits them all: what each page holds is its HTML alone.
    await withoutScripts(browser, async (tab) => {
      for (const [path, name] of [
        ['/', 'home'],
        ['/about', 'about'],
        ['/terms', 'terms'],
        ['/privacy-policy', 'privacy-policy'],
      ] as const) {
        expect(await visit(tab, path), path).toBe(200);
        expect(await mainHeading(tab).innerText(), path).toBe(payloadTitle(name));
        expect(await navLink(tab, 'Play').getAttribute('href'), path).toBe('/game');
        expect(await tab.locator('footer').count(), path).toBe(1);
        // Styled as the app styles it: the header is a flex row, the page text in its column.
        expect(await tab.locator('header').evaluate((el) => getComputedStyle(el).display), path).toBe('flex');
      }
    });
  });

  test('the app takes the page over without a layout shift, a payload request or a configuration request', async ({
    page,
    watch,
  }) => {
    await watchLayoutShifts(page);
    const requests: string[] = [];
    page.on('request', (request: Request) => requests.push(request.url()));
    expect(await visit(page, '/about')).toBe(200);
    const shown = await waitForRenderedPage(page);
    expect(shown.heading).toBe(payloadTitle('about'));
    // Past the takeover, every drawn frame's layout-shift entries received: nothing moved.
    const shifts = await layoutShiftsSoFar(page);
    // Sub-pixel rounding can register a few millionths; the page text moving by one pixel scores
    // some 0.0004 on this screen, so anything visible fails.
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.0001);
    // The app's own markup now: a client-side navigation works from it.
    expect(await followLink(page, navLink(page, 'Terms'), '/terms')).toMatchObject({
      heading: payloadTitle('terms'),
    });
    expect(watch.documentLoads()).toBe(1);

    // The about text came with the page; the terms text, navigated to, was fetched.
    expect(requests.filter((url) => url.includes('/payload/'))).toEqual([`${CONTENT_ORIGIN}/payload/terms.json`]);
    expect(requests.filter((url) => url.endsWith('/config.json'))).toEqual([]);
    // The configuration in the page is taken as the host's server wrote it: no schema is loaded.
    expect(requests.filter((url) => /\/config-check\.[0-9a-f]+\.js$/.test(url))).toEqual([]);
    expect(watch.problems()).toEqual([]);
  });

  test("the host's first script is one, main.js, and holds no schema library: the configuration's check is a chunk of its own", async ({
    page,
  }) => {
    const html = await (await fetch(`${HOST_ORIGIN}/about`, { headers: { Accept: 'text/html' } })).text();
    expect([...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1])).toEqual([
      expect.stringMatching(/^\/main\.[0-9a-f]+\.js$/),
    ]);
    const scripts: string[] = [];
    page.on('request', (request: Request) => {
      if (request.resourceType() === 'script' && request.url().startsWith(HOST_ORIGIN)) scripts.push(request.url());
    });
    expect(await visit(page, '/about')).toBe(200);
    await waitForRenderedPage(page);
    const main = scripts.find((url) => /\/main\.[0-9a-f]+\.js$/.test(url));
    expect(main, `the host's scripts: ${scripts.join(', ')}`).toBeDefined();
    // zod names its classes in strings ("$ZodType", "ZodError"), which minifying keeps.
    expect(await (await page.request.get(main ?? '')).text()).not.toMatch(/\$?Zod[A-Z]/);
  });

  test("the HTML preloads the route's remote; the remote loads each file once", async ({ page, watch }) => {
    const requests: string[] = [];
    page.on('request', (request: Request) => requests.push(request.url()));
    expect(await visit(page, '/game')).toBe(200);
    await waitForRenderedPage(page, { headingOnly: true });
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
    expect(watch.problems()).toEqual([]);
  });

  test("one federation runtime on the page, the host's: a remote's entry carries none of it", async ({
    page,
    watch,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request: Request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    expect(await visit(page, '/game')).toBe(200);
    await waitForRenderedPage(page);
    const text = async (pattern: RegExp) => {
      const url = scripts.find((candidate) => pattern.test(candidate));
      expect(url, `the page's scripts: ${scripts.join(', ')}`).toBeDefined();
      return (await page.request.get(url ?? '')).text();
    };
    // Strings minifying keeps: the runtime's error codes, and the name of the bundler runtime's plugin.
    const runtimeMarks = (code: string) => ({
      errorCodes: new Set(code.match(/RUNTIME-0\d\d/g)).size,
      bundlerRuntime: code.split('tree-shake-plugin').length - 1,
    });
    const host = runtimeMarks(await text(/\/main\.[0-9a-f]+\.js$/));
    expect(host.errorCodes).toBeGreaterThan(5);
    expect(host.bundlerRuntime).toBe(1);
    expect(runtimeMarks(await text(new RegExp(`^${originOf('gifts')}/remoteEntry\\.js`)))).toEqual({
      errorCodes: 0,
      bundlerRuntime: 0,
    });
    expect(watch.problems()).toEqual([]);
  });

  test("a page drawn by its remote gets every script it needs from the HTML, the remote's copies of shared modules the host lacks included", async ({
    page,
    watch,
    gift,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request: Request) => {
      if (request.resourceType() === 'script' && request.url().startsWith(originOf('gifts'))) {
        scripts.push(request.url());
      }
    });
    const path = `/gifts/${gift.giftId}`;
    expect(await visit(page, path)).toBe(200);
    await waitForRenderedPage(page);
    const html = await (await fetch(`${HOST_ORIGIN}${path}`, { headers: { Accept: 'text/html' } })).text();
    const preloaded = [
      ...html.matchAll(/<link rel="preload" href="([^"]+)" as="script" crossorigin integrity="sha384-[^"]+">/g),
    ].map((match) => match[1]);
    // More than the entry and the page's own chunks: the gift page uses shared modules (the
    // copy-to-clipboard hook, the icons) that the host's own code does not.
    expect(scripts.length).toBeGreaterThan(4);
    // None of them found only once the remote's entry had run, a round trip later.
    expect(scripts.filter((url) => !preloaded.includes(url))).toEqual([]);
    expect(watch.problems()).toEqual([]);
  });
});

test.describe('the game, prerendered', () => {
  test('shows its boxes, in the site frame, before any script runs', async ({ browser }) => {
    await withoutScripts(browser, async (tab) => {
      expect(await visit(tab, '/game')).toBe(200);
      // The game's markup (the registry names its module), whatever its team's heading says.
      const heading = tab.locator('#root[data-prerendered="GamePage"] main h1');
      expect(await heading.count()).toBe(1);
      expect((await heading.innerText()).trim()).not.toBe('');
      for (const box of ['Box 1', 'Box 2', 'Box 3']) {
        expect(await tab.getByRole('button', { name: box }).count()).toBe(1);
      }
    });
  });

  test('a box picked before the app has taken the page over is played once the app has', async ({ page, watch }) => {
    // The game's code held back: the page is still the server's markup when the box is picked.
    const release = await holdExposedModule(page, 'gifts', 'GamePage');
    const plays: string[] = [];
    page.on('request', (request: Request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/game/plays')) plays.push(request.url());
    });

    expect(await visit(page, '/game')).toBe(200);
    await page.getByRole('button', { name: 'Box 2' }).click();
    expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
    expect(plays).toEqual([]);

    await release();
    await page.getByRole('heading', { name: 'You won!' }).waitFor();
    expect(plays).toHaveLength(1);
    expect(watch.documentLoads()).toBe(1);
    expect(watch.problems()).toEqual([]);
  });
});

test.describe('the content remote down', () => {
  test.afterAll(async () => {
    await restartServer('content', { env: {} });
  });

  test('the last good text still shows, before scripts and after, with a note instead of an error', async ({
    browser,
    context,
    page,
  }) => {
    const title = payloadTitle('about');
    // The host's server has read the content remote's build; then the remote goes away.
    expect(await visit(page, '/about')).toBe(200);
    await waitForRenderedPage(page);
    await stopServer('content');

    await withoutScripts(browser, async (tab) => {
      expect(await visit(tab, '/about')).toBe(200);
      expect(await mainHeading(tab).innerText()).toBe(title);
    });

    // A second tab of the same visitor.
    const second = await context.newPage();
    const secondWatch = watchPage(second);
    try {
      expect(await visit(second, '/about')).toBe(200);
      const note = second.getByRole('status').filter({ hasText: 'Part of this page didn’t load' });
      await note.waitFor({ timeout: 30_000 });
      expect(await mainHeading(second).innerText()).toBe(title);
      expect(await second.locator('main [role="alert"]').count()).toBe(0);
      // One reload through the guard (a failed remote may be a deploy in progress), then the kept text.
      expect(secondWatch.documentLoads()).toBeLessThanOrEqual(2);
    } finally {
      await second.close();
    }
  });
});

test.describe('the gift page, rendered on the host server with its data', () => {
  test('holds the gift in its HTML; the app takes it over without asking for it again or moving, and Redeem works', async ({
    page,
    watch,
    gift,
  }) => {
    const path = `/gifts/${gift.giftId}`;
    const { prize } = (await (await fetch(`${originOf('api')}/api/gifts/${gift.giftId}`)).json()) as {
      prize: { name: string };
    };
    const response = await fetch(`${HOST_ORIGIN}${path}`, { headers: { Accept: 'text/html' } });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(html).toContain('<div id="root" data-prerendered="GiftPage">');
    expect(html).toContain(`<span class="p-gift__title">${prize.name}</span>`);
    expect(html).toMatch(/<p class="p-gift__value">[^<]+<\/p>/);
    expect(html).toContain('<p class="p-gift__badge">Ready to redeem</p>');
    expect(html).toContain('>Redeem</button>');

    await watchLayoutShifts(page);
    const giftReads: string[] = [];
    page.on('request', (request: Request) => {
      if (request.method() === 'GET' && request.url().endsWith(`/api/gifts/${gift.giftId}`))
        giftReads.push(request.url());
    });
    expect(await visit(page, path)).toBe(200);
    const shown = await waitForRenderedPage(page);
    expect(shown.heading).toContain(prize.name);
    const shifts = await layoutShiftsSoFar(page);
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.0001);
    expect(giftReads).toEqual([]);

    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page.waitForURL(/\/redeem\/[A-Za-z0-9_-]{24}$/);
    await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
    expect(watch.documentLoads()).toBe(1);
    expect(watch.problems()).toEqual([]);
  });

  test('an unknown gift is a 404 page', async () => {
    const response = await fetch(`${HOST_ORIGIN}/gifts/AAAAAAAAAAAAAAAAAAAAAAAA`, { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('data-prerendered');
  });
});

test.describe('the redeem page, rendered on the host server with its session', () => {
  test('holds the form in its HTML; the app takes it over without asking for the session again or moving, and redeeming works', async ({
    page,
    watch,
    gift,
  }) => {
    const path = `/redeem/${gift.redeemId}`;
    const response = await fetch(`${HOST_ORIGIN}${path}`, { headers: { Accept: 'text/html' } });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(html).toContain('<div id="root" data-prerendered="RedeemPage">');
    expect(html).toContain('Redeem your gift</h1>');
    expect(html).toContain('>Redeem my gift</button>');
    // A box that sends nothing until the app has taken the page over.
    expect(html).not.toContain('<form');

    await watchLayoutShifts(page);
    const sessionReads: string[] = [];
    page.on('request', (request: Request) => {
      if (request.method() === 'GET' && request.url().endsWith(`/api/redeems/${gift.redeemId}`)) {
        sessionReads.push(request.url());
      }
    });
    expect(await visit(page, path)).toBe(200);
    await waitForRenderedPage(page);
    const shifts = await layoutShiftsSoFar(page);
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.0001);
    expect(sessionReads).toEqual([]);

    await page.getByRole('textbox', { name: /Email address/ }).fill('winner@example.com');
    await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
    await page.getByRole('button', { name: 'Redeem my gift' }).click();
    await page.getByRole('group', { name: 'Voucher code' }).waitFor();
    expect(watch.documentLoads()).toBe(1);
    expect(watch.problems()).toEqual([]);
  });

  test('what is typed before the app has taken the page over is kept, with the caret, and redeems', async ({
    page,
    watch,
    gift,
  }) => {
    // The page's code held back: the form is still the server's markup while the visitor types.
    const release = await holdExposedModule(page, 'redeem', 'RedeemPage');
    expect(await visit(page, `/redeem/${gift.redeemId}`)).toBe(200);
    const email = page.getByRole('textbox', { name: /Email address/ });
    await email.pressSequentially('winner@exam');
    await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
    await email.click();
    expect(await page.locator('#root[data-prerendered]').count()).toBe(1);

    await release();
    await page.locator('#root:not([data-prerendered])').waitFor();
    await expect(email).toHaveValue('winner@exam');
    await expect(page.getByRole('checkbox', { name: 'I accept the terms' })).toBeChecked();
    // The visitor goes on typing where they were.
    await page.keyboard.type('ple.com');
    await expect(email).toHaveValue('winner@example.com');
    await page.getByRole('button', { name: 'Redeem my gift' }).click();
    await page.getByRole('group', { name: 'Voucher code' }).waitFor();
    expect(watch.documentLoads()).toBe(1);
    expect(watch.problems()).toEqual([]);
  });
});
