/**
 * Analytics and the tag manager in a real browser, with the host's real `mixpanel-browser`
 * pointed at a loopback collector (MIXPANEL_API_HOST) and gtag.js served by a loopback stand-in
 * (GTAG_SCRIPT_URL): nothing reaches the collector before consent, batches of at most 50 are
 * flushed within about 5 s, a collector that is down changes nothing for the visitor, a
 * declined choice holds across reloads, the tag starts with consent denied, and no email,
 * voucher code, gift id or redeem id ever leaves.
 */
import type { ConsoleMessage, Page, Request } from '@playwright/test';
import { errorPage, mainHeading, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { startCollector, type CollectedEvent, type Collector } from '../support/collector';
import { expect, test } from '../support/fixtures';
import { gtagRecord, startGtagStandIn, type GtagStandIn } from '../support/gtag-stand-in';
import { HOST_ORIGIN, standInPort } from '../support/test-env';

const COLLECTOR_PORT = standInPort(0);
const GTAG_PORT = standInPort(1);
const MEASUREMENT_ID = 'G-E2ETEST01';
const EMAIL = 'analytics.winner@example.com';
/** Longer than Mixpanel's 5 s flush interval: anything queued would have been sent by then. */
const QUIET_MS = 6_500;
/** "About 5 s", with room for a busy two-core machine. */
const FLUSH_BOUND_MS = 15_000;
/** The host's lazily loaded Mixpanel chunk. */
const MIXPANEL_CHUNK = /\/mixpanel\.[0-9a-f]+\.js$/;
/** The browser's own console line for a request that got no answer. */
const CONNECTION_REFUSED = /^Failed to load resource: net::ERR_CONNECTION_REFUSED/;

test.use({
  serverOptions: {
    servers: {
      host: {
        env: {
          MIXPANEL_TOKEN: 'e2e-token',
          MIXPANEL_API_HOST: `http://127.0.0.1:${COLLECTOR_PORT}`,
          GTAG_MEASUREMENT_ID: MEASUREMENT_ID,
          GTAG_SCRIPT_URL: `http://127.0.0.1:${GTAG_PORT}/gtag/js`,
        },
      },
    },
  },
});

let collector: Collector | undefined;
let gtag: GtagStandIn | undefined;

test.beforeAll(async () => {
  collector = await startCollector(COLLECTOR_PORT);
  gtag = await startGtagStandIn(GTAG_PORT);
});

test.afterAll(async () => {
  await collector?.close();
  await gtag?.close();
});

// Before each test, not after: the previous test's page is closed by then and sends no more.
test.beforeEach(() => {
  collector?.reset();
  theTag().reset();
});

function theCollector(): Collector {
  if (!collector) throw new Error('the collector is not running');
  return collector;
}

function theTag(): GtagStandIn {
  if (!gtag) throw new Error('the gtag stand-in is not running');
  return gtag;
}

/** Records when the tag's script element is added, and whether the app had rendered by then. */
const GTAG_INSERT_PROBE = `(() => {
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeName === 'SCRIPT' && String(node.src).includes('/gtag/js') && !window.__gtagInserted) {
          window.__gtagInserted = { at: performance.now(), appRendered: Boolean(document.querySelector('#root > *')) };
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();`;

interface Visitor {
  /** Every request for the Mixpanel chunk, with when it was made. */
  chunkRequests: Array<{ url: string; at: number }>;
  warnings: string[];
}

/**
 * Watches a new visitor's page (the test's own context: no earlier choice, cookie or queue) for
 * the Mixpanel chunk and console warnings, and probes when the tag's script is added.
 */
async function freshVisitor(page: Page): Promise<Visitor> {
  await page.addInitScript({ content: GTAG_INSERT_PROBE });
  const chunkRequests: Visitor['chunkRequests'] = [];
  const warnings: string[] = [];
  page.on('request', (request: Request) => {
    if (MIXPANEL_CHUNK.test(new URL(request.url()).pathname))
      chunkRequests.push({ url: request.url(), at: Date.now() });
  });
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  return { chunkRequests, warnings };
}

/**
 * Proves that QUIET_MS passed in the page with nothing sent, on the page's clock (installed by
 * `quietClock`) run forward at once: every timer of the page due within QUIET_MS (longer than
 * Mixpanel's flush interval) fires. Then the page's own request for the collector's marker,
 * answered: the collector was taking this page's requests all along, and the browser reports
 * requests in the order they were made, so one a timer made would have shown before the marker.
 */
async function quietPeriod(page: Page): Promise<void> {
  const markersBefore = theCollector().markers();
  const collectorOrigin = new URL(theCollector().markerUrl).origin;
  const sent: string[] = [];
  const onRequest = (request: Request) => {
    if (new URL(request.url()).origin === collectorOrigin) sent.push(request.url());
  };
  page.on('request', onRequest);
  try {
    await page.clock.runFor(QUIET_MS);
    await page.evaluate(async (markerUrl) => {
      const response = await fetch(markerUrl, { cache: 'no-store' });
      if (response.status !== 204) throw new Error(`the collector's marker answered ${response.status}`);
    }, theCollector().markerUrl);
  } finally {
    page.off('request', onRequest);
  }
  expect(sent).toEqual([theCollector().markerUrl]);
  expect(theCollector().markers()).toBe(markersBefore + 1);
}

/** A clock the test runs forward (quietPeriod); it runs at the real pace until then. */
async function quietClock(page: Page): Promise<void> {
  await page.clock.install();
}

const banner = (page: Page) => page.getByRole('region', { name: 'Cookies and analytics' });
const cookieSettings = (page: Page) => page.getByRole('button', { name: 'Cookie settings' });

async function answerConsent(page: Page, answer: 'Accept' | 'Decline'): Promise<void> {
  await banner(page).getByRole('button', { name: answer }).click();
  await banner(page).waitFor({ state: 'detached' });
}

const CYCLE = [
  { label: 'About', path: '/about' },
  { label: 'Terms', path: '/terms' },
  { label: 'Privacy', path: '/privacy-policy' },
  { label: 'Play', path: '/game' },
  { label: 'Home', path: '/' },
];

/**
 * Client-side navigations through the header, each waited for, starting from `/`: each one is
 * one page view. Returns the paths visited.
 */
async function navigate(page: Page, count: number): Promise<string[]> {
  const paths: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const next = CYCLE[n % CYCLE.length] as (typeof CYCLE)[number];
    await navLink(page, next.label).click();
    await page.waitForURL(`${HOST_ORIGIN}${next.path}`);
    paths.push(next.path);
  }
  return paths;
}

async function openHome(page: Page): Promise<void> {
  expect(await visit(page, '/')).toBe(200);
  await waitForRenderedPage(page, { headingOnly: true });
  // The banner appears once the third parties start, after the first paint.
  await banner(page).waitFor();
}

const pageViews = (events: CollectedEvent[]) => events.filter((event) => event.event === 'Page Viewed');

test('before the visitor accepts, nothing reaches the collector and the Mixpanel chunk is not loaded; after Accept, events arrive', async ({
  page,
  watch,
}) => {
  const { chunkRequests } = await freshVisitor(page);
  await quietClock(page);
  await openHome(page);
  const paths = await navigate(page, 3);
  await quietPeriod(page);

  expect(theCollector().requests()).toEqual([]);
  expect(chunkRequests).toEqual([]);

  const acceptedAt = Date.now();
  // The page's clock is QUIET_MS ahead of this one now: its events are dated by it.
  const acceptedInPage = await page.evaluate(() => Date.now());
  await answerConsent(page, 'Accept');
  await theCollector().waitForEvents(1 + paths.length, FLUSH_BOUND_MS + 5_000);

  expect(chunkRequests).toHaveLength(1);
  expect(chunkRequests[0]?.at).toBeGreaterThanOrEqual(acceptedAt);
  // What was seen while waiting is sent once accepted, by route, dated when it was seen.
  const byTime = pageViews(theCollector().events()).sort(
    (a, b) => Number(a.properties.time) - Number(b.properties.time),
  );
  expect(byTime.map((event) => event.properties.route)).toEqual(['/', ...paths]);
  expect(Number(byTime[0]?.properties.time) * 1000).toBeLessThan(acceptedInPage - QUIET_MS);
  expect(watch.problems()).toEqual([]);
});

test('events are sent in batches of at most 50, flushed within about 5 s', async ({ page, watch }) => {
  test.setTimeout(120_000);
  await freshVisitor(page);
  await openHome(page);
  // 60 page views while the question is open: they wait, then reach Mixpanel all at once.
  const before = 1 + (await navigate(page, 59)).length;
  const acceptedAt = Date.now();
  await answerConsent(page, 'Accept');
  await theCollector().waitForEvents(before, 30_000);
  const firstBatchAfterAccept = (theCollector().batches()[0]?.receivedAt ?? Infinity) - acceptedAt;

  // Then 20 more, one by one, with Mixpanel already running.
  const startedAt = Date.now();
  const after = (await navigate(page, 20)).length;
  await theCollector().waitForEvents(before + after, 30_000);
  // Signal instead of a 1 s sleep: one more page view, made now, arrives; Mixpanel sends its queue in order, one request at a time, so every batch queued or retried before it has arrived.
  const markedAt = Date.now();
  const marker = (await navigate(page, 1)).length;
  await theCollector().waitUntil(
    (events) => pageViews(events).some((event) => Number(event.properties.time) * 1000 >= markedAt),
    'page view made after the others had arrived',
    FLUSH_BOUND_MS + 5_000,
  );
  const total = before + after + marker;

  const batches = theCollector().batches();
  const sizes = batches.map((batch) => batch.events.length);
  // The batches holding the later events (`time` is when each happened, in seconds).
  const laterBatches = batches.filter((batch) =>
    batch.events.some((event) => Number(event.properties.time) * 1000 >= startedAt),
  );
  const firstBatchAfterEvent = (laterBatches[0]?.receivedAt ?? Infinity) - startedAt;
  // How long each event of the second part waited in the queue (`time` is when it happened).
  const waits = laterBatches.flatMap((batch) =>
    batch.events.map((event) => batch.receivedAt - Number(event.properties.time) * 1000),
  );
  console.log(
    [
      `[analytics] batch sizes: ${sizes.join(', ')} (total ${sizes.reduce((a, b) => a + b, 0)})`,
      `[analytics] first batch ${firstBatchAfterAccept} ms after Accept (60 events waiting)`,
      `[analytics] first batch ${firstBatchAfterEvent} ms after the first later event; waits in queue ${Math.min(...waits)}–${Math.max(...waits)} ms`,
      `[analytics] batch arrival gaps: ${batches
        .slice(1)
        .map((batch, index) => batch.receivedAt - (batches[index]?.receivedAt ?? 0))
        .join(', ')} ms`,
    ].join('\n'),
  );

  expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
  expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
  expect(pageViews(theCollector().events())).toHaveLength(total);
  expect(batches.every((batch) => batch.method === 'POST')).toBe(true);
  expect(firstBatchAfterAccept).toBeLessThan(FLUSH_BOUND_MS);
  expect(firstBatchAfterEvent).toBeLessThan(FLUSH_BOUND_MS);
  expect(Math.max(...waits)).toBeLessThan(FLUSH_BOUND_MS);
  expect(watch.problems()).toEqual([]);
});

test('a declined choice sends nothing, loads no Mixpanel and holds across a reload, where the tag no longer starts', async ({
  page,
  watch,
}) => {
  const { chunkRequests } = await freshVisitor(page);
  await quietClock(page);
  await openHome(page);
  await answerConsent(page, 'Decline');
  await navigate(page, 2);
  const declinedCommands = (await gtagRecord(page)).commands.map((command) => command.args);
  expect(declinedCommands).toContainEqual(['consent', 'update', { analytics_storage: 'denied' }]);
  expect(declinedCommands).not.toContainEqual(['consent', 'update', { analytics_storage: 'granted' }]);
  const tagRequestsBefore = theTag().requests().length;

  await page.reload();
  await waitForRenderedPage(page, { headingOnly: true });
  // "Cookie settings" shows once the third parties have started: the banner would be up by now.
  await cookieSettings(page).waitFor();
  expect(await banner(page).count()).toBe(0);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('p-consent') ?? 'null')?.choice)).toBe('denied');
  await navigate(page, 2);
  await quietPeriod(page);

  expect(theCollector().requests()).toEqual([]);
  expect(chunkRequests).toEqual([]);
  // A visitor who said no gets no tag at all, not even consent mode's cookieless pings.
  expect(theTag().requests()).toHaveLength(tagRequestsBefore);
  expect(await page.evaluate(() => 'dataLayer' in window || 'gtag' in window)).toBe(false);
  expect(watch.problems()).toEqual([]);
});

test('the tag starts after the app has rendered, with consent denied before its config, and is granted on Accept', async ({
  page,
  watch,
  gift,
}) => {
  await freshVisitor(page);
  const { giftId } = gift;
  expect(await visit(page, `/gifts/${giftId}`)).toBe(200);
  await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();

  const record = await gtagRecord(page);
  const inserted = await page.evaluate(
    () => (window as unknown as { __gtagInserted?: { at: number; appRendered: boolean } }).__gtagInserted,
  );
  const paint = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
  );
  expect(inserted?.appRendered).toBe(true);
  expect(inserted?.at).toBeGreaterThan(paint);
  expect(
    theTag()
      .requests()
      .map((request) => new URL(request.url, 'http://x').searchParams.get('id')),
  ).toEqual([MEASUREMENT_ID]);
  expect(record.id).toBe(MEASUREMENT_ID);

  const commands = record.commands.map((command) => command.args);
  expect(record.commands.every((command) => command.isArguments)).toBe(true);
  expect(commands[0]).toEqual([
    'consent',
    'default',
    { analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' },
  ]);
  const configAt = commands.findIndex(([command]) => command === 'config');
  expect(commands[configAt]?.[1]).toBe(MEASUREMENT_ID);
  expect(commands.findIndex(([command]) => command === 'js')).toBeLessThan(configAt);
  expect(commands).not.toContainEqual(['consent', 'update', { analytics_storage: 'granted' }]);
  // The tag is told the route pattern, not the address with the gift id, and one page view.
  expect(commands[configAt]?.[2]).toEqual({ page_location: `${HOST_ORIGIN}/gifts/:giftId`, send_page_view: false });
  expect(commands.filter(([command, name]) => command === 'event' && name === 'page_view')).toEqual([
    ['event', 'page_view', { page_location: `${HOST_ORIGIN}/gifts/:giftId` }],
  ]);
  expect(JSON.stringify(commands)).not.toContain(giftId);

  await answerConsent(page, 'Accept');
  await page.waitForFunction(() =>
    (window as unknown as { __gtagStandIn: { commands: Array<{ args: unknown[] }> } }).__gtagStandIn.commands.some(
      ({ args }) =>
        args[0] === 'consent' && args[1] === 'update' && JSON.stringify(args[2]) === '{"analytics_storage":"granted"}',
    ),
  );
  expect(watch.problems()).toEqual([]);
});

test('a full journey sends product events with no email, voucher code, gift id or redeem id', async ({
  page,
  watch,
}) => {
  await freshVisitor(page);
  await openHome(page);
  await answerConsent(page, 'Accept');

  await navLink(page, 'Play').click();
  await page.getByRole('button', { name: 'Box 2' }).click();
  await page.getByRole('heading', { name: 'You won!' }).waitFor();
  await page.getByRole('link', { name: 'Open your gift' }).click();
  await page.waitForURL(/\/gifts\/[A-Za-z0-9_-]{24}$/);
  const giftId = new URL(page.url()).pathname.split('/')[2] ?? '';
  await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
  await page.getByRole('button', { name: 'Redeem', exact: true }).click();
  await page.waitForURL(/\/redeem\/[A-Za-z0-9_-]{24}$/);
  const redeemId = new URL(page.url()).pathname.split('/')[2] ?? '';
  await page.getByRole('textbox', { name: /Email address/ }).fill(EMAIL);
  await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
  await page.getByRole('button', { name: 'Redeem my gift' }).click();
  const voucher = (await page.getByRole('group', { name: 'Voucher code' }).innerText()).match(
    /[0-9A-Z]{4}(-[0-9A-Z]{4}){6}/,
  )?.[0];
  expect(voucher).toBeDefined();

  // Signal instead of polling every 250 ms: the collector wakes this wait as each request arrives.
  await theCollector().waitUntil(
    (events) => events.some((event) => event.event === 'Redeem Completed'),
    "'Redeem Completed' event",
    FLUSH_BOUND_MS + 5_000,
  );

  // Mixpanel's queue does not keep the order of events tracked in the same moment; `time` does.
  const events = theCollector().events();
  expect(events.map((event) => event.event).sort()).toEqual(
    [
      'Page Viewed',
      'Page Viewed',
      'Game Played',
      'Page Viewed',
      'Gift Viewed',
      'Redeem Started',
      'Page Viewed',
      'Redeem Completed',
    ].sort(),
  );
  expect(
    pageViews(events)
      .map((event) => event.properties.route)
      .sort(),
  ).toEqual(['/', '/game', '/gifts/:giftId', '/redeem/:redeemId'].sort());
  expect(events.find((event) => event.event === 'Game Played')?.properties).toMatchObject({
    outcome: 'win',
    prizeId: expect.any(String),
  });
  expect(events.find((event) => event.event === 'Gift Viewed')?.properties).toMatchObject({
    prizeId: expect.any(String),
    status: 'available',
  });

  // Everything that left for the collector or the tag, decoded.
  const sent = [
    ...theCollector()
      .requests()
      .map((request) => `${request.url}\n${request.body}`),
    JSON.stringify((await gtagRecord(page)).commands),
  ].join('\n');
  for (const secret of [EMAIL, voucher as string, giftId, redeemId])
    expect({ secret, found: sent.includes(secret) }).toEqual({ secret, found: false });
  expect(watch.problems()).toEqual([]);
});

test('with the collector down, the app works and only logs', async ({ page, watch }) => {
  await theCollector().close();
  collector = undefined;
  try {
    const { warnings } = await freshVisitor(page);
    await openHome(page);
    await answerConsent(page, 'Accept');
    const paths = await navigate(page, 4);
    // Signal instead of a sleep: Mixpanel's warning that its request to the collector failed.
    await expect
      .poll(() => warnings.some((warning) => warning.startsWith('[analytics] Mixpanel:')), {
        message: "Mixpanel's warning about the failed request",
        timeout: FLUSH_BOUND_MS + 5_000,
      })
      .toBe(true);

    for (const path of paths.slice(0, 2)) {
      await navLink(page, CYCLE.find((entry) => entry.path === path)?.label ?? '').click();
      await page.waitForURL(`${HOST_ORIGIN}${path}`);
      expect((await waitForRenderedPage(page, { headingOnly: true })).heading).not.toBe('');
    }
    expect(await errorPage(page).count()).toBe(0);
    expect(await mainHeading(page).isVisible()).toBe(true);
    expect(watch.pageErrors).toEqual([]);
    // The browser notes the refused request itself; the app adds no error of its own.
    expect(
      watch.problems().filter((problem) => !CONNECTION_REFUSED.test(problem.replace(/^console error: /, ''))),
    ).toEqual([]);
    expect(warnings.some((warning) => warning.startsWith('[analytics] Mixpanel:'))).toBe(true);
  } finally {
    collector = await startCollector(COLLECTOR_PORT);
  }
});
