/**
 * Live chat (Crisp, through crisp-sdk-web) in a real browser, with a loopback stand-in serving
 * Crisp's client script (CRISP_SCRIPT_URL): loaded only after the app's first render, the
 * bubble shown or hidden by layout (hidden on the redeem layout, without a flash), a chat
 * toggled before the script arrives opening once it does, and a missing script or no chat
 * configuration leaving the app working with at most a warning.
 */
import type { ConsoleMessage, Page, Route } from '@playwright/test';
import { followLink, layoutName, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { startCrispStandIn, standInRecord, waitForStandIn, type CrispStandIn } from '../support/crisp-stand-in';
import type { PageWatch } from '../support/browser';
import { expect, test } from '../support/fixtures';
import { httpGet, httpGetPage } from '../support/http';
import { restartServer } from '../support/servers';
import { HOST_ORIGIN, originOf, standInPort } from '../support/test-env';

const STAND_IN_PORT = standInPort(0);
const WEBSITE_ID = 'e2e-website-0001';
const STAND_IN_URL = `http://localhost:${STAND_IN_PORT}/l.js`;
/** A string only crisp-sdk-web's code contains, to tell which script carries the SDK. */
const SDK_MARKER = 'websiteId must be set before loading Crisp';
/** What the browser logs itself for a request answered with an error status. */
const RESOURCE_ERROR = /^Failed to load resource: /;

// Servers of its own: the host with chat configured, restarted without it at the end.
const CHAT_ENV = { CRISP_WEBSITE_ID: WEBSITE_ID, CRISP_SCRIPT_URL: STAND_IN_URL };

test.use({ serverOptions: { servers: { host: { env: CHAT_ENV } } } });

let standIn: CrispStandIn;

test.beforeAll(async () => {
  standIn = await startCrispStandIn(STAND_IN_PORT);
});

test.afterAll(async () => {
  await standIn?.close();
});

test.beforeEach(() => standIn.reset());

const bubble = (page: Page) => page.locator('#crisp-chatbox');
const chatPanel = (page: Page) => page.getByRole('dialog', { name: 'Crisp chat' });
const chatButton = (page: Page) => page.getByRole('button', { name: 'Chat with us' });

/** Records, from before any page script, when #root first gets content and the first (contentful) paint. */
const FIRST_RENDER_PROBE = `(() => {
  const marks = {};
  window.__firstRender = marks;
  const observer = new MutationObserver(() => {
    const root = document.getElementById('root');
    if (root && root.childElementCount > 0) {
      marks.rootRendered = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-paint') marks.firstPaint = entry.startTime;
      if (entry.name === 'first-contentful-paint') marks.firstContentfulPaint = entry.startTime;
    }
  }).observe({ type: 'paint', buffered: true });
})();`;

interface FirstRender {
  rootRendered?: number;
  firstPaint?: number;
  firstContentfulPaint?: number;
}

interface Timing extends FirstRender {
  scripts: Array<{ url: string; startTime: number }>;
}

function pageTiming(page: Page): Promise<Timing> {
  return page.evaluate(() => ({
    ...(window as unknown as { __firstRender: FirstRender }).__firstRender,
    scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => entry.initiatorType === 'script')
      .map((entry) => ({ url: entry.name, startTime: entry.startTime })),
  }));
}

/** Console warnings of the page, as text. */
function collectWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  return warnings;
}

/** Waits past the app's after-first-paint start-up (animation frame, task, idle callback) and the network's settling. */
async function afterStartUp(page: Page): Promise<void> {
  for (let i = 0; i < 2; i += 1) {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => setTimeout(() => requestIdleCallback(() => resolve(), { timeout: 3000 }), 0)),
        ),
    );
  }
  await page.waitForLoadState('networkidle');
}

test.describe('chat configured', () => {
  test("Crisp's script is requested only after the app's first render and first paint; the SDK is in no script loaded before it", async ({
    page,
    watch,
  }) => {
    await page.addInitScript({ content: FIRST_RENDER_PROBE });
    expect(await visit(page, '/')).toBe(200);
    await bubble(page).waitFor({ state: 'visible' });

    // The runtime configuration written into the page names the script (as data); no script loads it.
    const html = (await httpGetPage(`${HOST_ORIGIN}/`)).body.replace(
      /<script type="application\/json" id="gift-box-config">[\s\S]*?<\/script>/,
      '',
    );
    expect(html).not.toContain(STAND_IN_URL);
    expect(html.toLowerCase()).not.toContain('crisp');

    const timing = await pageTiming(page);
    const loader = timing.scripts.find((script) => script.url === STAND_IN_URL);
    expect(loader).toBeDefined();
    expect(standIn.requests).toHaveLength(1);
    expect(timing.rootRendered).toBeDefined();
    expect(timing.firstPaint).toBeDefined();
    const rendered = timing.rootRendered ?? Infinity;
    expect(loader?.startTime).toBeGreaterThan(rendered);
    expect(loader?.startTime).toBeGreaterThan(timing.firstPaint ?? Infinity);

    // Every script the page fetched from the host: the SDK is only in those after the first render.
    const hostScripts = timing.scripts.filter((script) => script.url.startsWith(HOST_ORIGIN));
    const withSdk: Array<{ url: string; startTime: number }> = [];
    for (const script of hostScripts) {
      if ((await httpGet(script.url)).body.includes(SDK_MARKER)) withSdk.push(script);
    }
    expect(withSdk).toHaveLength(1);
    expect(withSdk[0]?.startTime).toBeGreaterThan(rendered);
    console.log(
      '[chat] ms since navigation: #root rendered',
      Math.round(rendered),
      '| first paint',
      Math.round(timing.firstPaint ?? NaN),
      '| first contentful paint',
      timing.firstContentfulPaint === undefined ? 'n/a' : Math.round(timing.firstContentfulPaint),
      '| SDK chunk requested',
      Math.round(withSdk[0]?.startTime ?? NaN),
      `(${new URL(withSdk[0]?.url ?? HOST_ORIGIN).pathname})`,
      "| Crisp's script requested",
      Math.round(loader?.startTime ?? NaN),
    );

    const record = await waitForStandIn(page);
    expect(record.websiteId).toBe(WEBSITE_ID);
    expect(watch.problems()).toEqual([]);
  });

  for (const template of ['/', '/game', '/gifts/{giftId}']) {
    test(`the bubble shows on ${template}`, async ({ page, watch, gift }) => {
      expect(await visit(page, template.replace('{giftId}', gift.giftId))).toBe(200);
      await bubble(page).waitFor({ state: 'visible' });
      expect(await layoutName(page)).not.toBe('redeem');
      expect((await standInRecord(page))?.visible).toBe(true);
      expect(watch.problems()).toEqual([]);
    });
  }

  test('a direct load of a redeem page never shows the bubble, not even for a moment', async ({
    page,
    watch,
    gift,
  }) => {
    expect(await visit(page, `/redeem/${gift.redeemId}`)).toBe(200);
    await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
    const record = await waitForStandIn(page);
    expect(await layoutName(page)).toBe('redeem');
    expect(record.visible).toBe(false);
    expect(record.everVisible).toBe(false);
    // The hide was waiting in Crisp's queue before its script ran.
    expect(record.commands.filter((command) => command.name === 'chat:hide').every((command) => command.queued)).toBe(
      true,
    );
    expect(await bubble(page).isVisible()).toBe(false);
    expect(watch.problems()).toEqual([]);
  });

  test('a redeem page whose remote is still loading when Crisp arrives shows no bubble meanwhile either', async ({
    page,
    watch,
    gift,
  }) => {
    // The redeem page drawn by its remote in the browser, as when the API does not answer the
    // host's server in time: rendered with its session, the page holds its text until the app
    // takes it over (docs/decisions/0028-data-pages-rendered-by-the-host-server.md).
    await restartServer('host', { env: { ...CHAT_ENV, PAGE_DATA_TIMEOUT_MS: '0' } });
    try {
      await redeemPageWhileItsRemoteLoads(page, watch, gift.redeemId);
    } finally {
      await restartServer('host', { env: CHAT_ENV });
    }
  });

  async function redeemPageWhileItsRemoteLoads(page: Page, watch: PageWatch, redeemId: string): Promise<void> {
    let requested = 0;
    let releaseRemote = () => undefined as void;
    const remoteHeld = new Promise<void>((resolve) => {
      releaseRemote = resolve;
    });
    await page.route(`${originOf('redeem')}/remoteEntry.js*`, async (route: Route) => {
      requested += 1;
      await remoteHeld;
      await route.continue();
    });
    expect(await visit(page, `/redeem/${redeemId}`)).toBe(200);
    // Crisp is up while the redeem page itself is still loading.
    const early = await waitForStandIn(page);
    expect(requested).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { name: 'Redeem your gift' }).count()).toBe(0);
    expect(early.visible).toBe(false);
    expect(early.everVisible).toBe(false);

    releaseRemote();
    await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
    const record = await standInRecord(page);
    expect(record?.visible).toBe(false);
    expect(record?.everVisible).toBe(false);
    expect(watch.problems()).toEqual([]);
  }

  test('navigating client-side from a gift to redeem hides the bubble; going back shows it again', async ({
    page,
    watch,
    gift,
  }) => {
    expect(await visit(page, `/gifts/${gift.giftId}`)).toBe(200);
    await bubble(page).waitFor({ state: 'visible' });

    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page.waitForURL(/\/redeem\/[A-Za-z0-9_-]{24}$/);
    await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
    await bubble(page).waitFor({ state: 'hidden' });

    await page.goBack();
    await page.waitForURL(`${HOST_ORIGIN}/gifts/${gift.giftId}`);
    await bubble(page).waitFor({ state: 'visible' });

    await navLink(page, 'Home').click();
    await waitForRenderedPage(page);
    expect(await bubble(page).isVisible()).toBe(true);
    expect(watch.documentLoads()).toBe(1);
    expect(standIn.requests).toHaveLength(1);
    expect(watch.problems()).toEqual([]);
  });

  test("'Chat with us' pressed before Crisp's script has arrived opens the chat once it does", async ({
    page,
    watch,
  }) => {
    standIn.hold();
    expect(await visit(page, '/')).toBe(200);
    await chatButton(page).click();
    // Pressed while the script was still on its way: Crisp's queue is a plain array.
    // Signal instead of polling every 50 ms: the stand-in wakes this wait when the request arrives.
    await standIn.waitForRequests(1);
    expect(standIn.requests).toHaveLength(1);
    expect(await page.evaluate(() => Array.isArray((window as unknown as { $crisp?: unknown }).$crisp))).toBe(true);
    expect(await standInRecord(page)).toBeUndefined();

    standIn.release();
    await chatPanel(page).waitFor({ state: 'visible' });
    const record = await waitForStandIn(page);
    expect(record.commands).toContainEqual({ verb: 'do', name: 'chat:toggle', queued: true });
    expect(record.visible).toBe(true);
    await page.locator('button[aria-expanded="true"]', { hasText: 'Chat with us' }).waitFor();

    // Once loaded, the same button closes it again.
    await chatButton(page).click();
    await chatPanel(page).waitFor({ state: 'hidden' });
    expect(await chatButton(page).getAttribute('aria-expanded')).toBe('false');
    expect(watch.problems()).toEqual([]);
  });

  for (const status of [404, 500]) {
    test(`Crisp's script answering ${status}: the app works, chat goes away, only a warning is logged`, async ({
      page,
      watch,
    }) => {
      const warnings = collectWarnings(page);
      standIn.answerWith(status);
      expect(await visit(page, '/')).toBe(200);
      await waitForRenderedPage(page);
      // Signal instead of a 50 ms polling loop: expect.poll on the page's console warnings, until the app's own.
      await expect
        .poll(() => warnings.some((text) => text.includes('Live chat is off')), {
          message: 'the warning that chat is off',
          timeout: 15_000,
        })
        .toBe(true);
      expect(standIn.requests).toHaveLength(1);
      expect(await chatButton(page).count()).toBe(0);
      expect(await bubble(page).count()).toBe(0);

      await followLink(page, navLink(page, 'About'), '/about');
      expect(watch.documentLoads()).toBe(1);
      // The browser's own note on the failed request is the only console error.
      const errors = watch.consoleErrors.filter((text) => !(RESOURCE_ERROR.test(text) && text.includes(STAND_IN_URL)));
      expect([...errors, ...watch.pageErrors]).toEqual([]);
    });
  }
});

test.describe('chat not configured', () => {
  test.beforeAll(async () => {
    await restartServer('host', { env: { CRISP_WEBSITE_ID: undefined, CRISP_SCRIPT_URL: undefined } });
  });

  test('no script request, no chat button, no bubble; every layout works', async ({ page, watch, gift }) => {
    const warnings = collectWarnings(page);
    expect(await visit(page, '/')).toBe(200);
    await waitForRenderedPage(page);
    await afterStartUp(page);
    expect(await chatButton(page).count()).toBe(0);

    await followLink(page, navLink(page, 'Play'), '/game', { headingOnly: true });
    expect(await visit(page, `/redeem/${gift.redeemId}`)).toBe(200);
    await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
    await afterStartUp(page);

    expect(standIn.requests).toEqual([]);
    expect(await bubble(page).count()).toBe(0);
    expect(await page.evaluate(() => '$crisp' in window)).toBe(false);
    expect(warnings.filter((text) => /chat|crisp/i.test(text))).toEqual([]);
    expect(watch.problems()).toEqual([]);
  });
});
