/**
 * Icons offline: every request that would leave this machine is blocked and recorded. The
 * prizes' icons are bundled, so the gift page, the game and the redeem page show them without
 * asking the icon service, which is configured (a loopback stand-in that records requests).
 * A prize whose icon is not bundled (the API started with a test catalogue) gets its icon from
 * the service once and from the browser's cache after; a failing or too slow service leaves an
 * empty box of the same size, and the page works.
 */
import { join } from 'node:path';
import type { ConsoleMessage, Locator, Page } from '@playwright/test';
import { openRedeemSession, winGift } from '../support/api';
import { freshApiDataDir } from '../support/api-data';
import { visit } from '../support/app-page';
import { writeOnePrizeCatalogue } from '../support/catalogue';
import { expect, test } from '../support/fixtures';
import { startIconServiceStandIn, type IconServiceStandIn } from '../support/icon-service-stand-in';
import { restartServer } from '../support/servers';
import { TMP_DIR, standInPort } from '../support/test-env';

const STAND_IN_PORT = standInPort(0);
const ICON_TIMEOUT_MS = 2000;
/** Not in the app's bundle: only the stand-in has it. */
const FALLBACK_ICON = 'mdi:rocket-launch';
/** Each prize icon on the gift page is 2.25rem. */
const GIFT_ICON_REM = 2.25;

// Servers of its own: the host with the icon service configured, the API restarted with a test catalogue.
test.use({
  serverOptions: {
    servers: {
      host: {
        env: { ICON_SERVICE_URL: `http://127.0.0.1:${STAND_IN_PORT}`, ICON_TIMEOUT_MS: String(ICON_TIMEOUT_MS) },
      },
    },
  },
});

let standIn: IconServiceStandIn | undefined;
test.beforeAll(async () => {
  standIn = await startIconServiceStandIn(STAND_IN_PORT);
});
test.afterAll(() => standIn?.close());

function service(): IconServiceStandIn {
  if (!standIn) throw new Error('the icon service stand-in did not start');
  return standIn;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
let offMachine: string[] = [];
let iconWarnings: string[] = [];

test.beforeEach(async ({ page }) => {
  offMachine = [];
  iconWarnings = [];
  service().reset();
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (LOOPBACK.has(new URL(url).hostname)) return route.continue();
    offMachine.push(url);
    return route.abort('internetdisconnected');
  });
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'warning' && message.text().startsWith('Icon "')) iconWarnings.push(message.text());
  });
  // The gift card slides in; without motion, positions can be compared at any moment.
  await page.emulateMedia({ reducedMotion: 'reduce' });
});

/** The icon's svg once it has rendered with a shape. */
function loadedIcon(scope: Locator | Page, name?: string): Locator {
  const which = name ? `[data-icon="${name}"]` : '[data-icon]';
  return scope.locator(`svg${which}[data-state="loaded"]:has(path)`);
}

/**
 * The box of what `selector` matches, measured in one evaluation in the page. Until the scripts
 * take over, the page is the server's markup, which they then replace: an element a locator found
 * may be gone by the time a second call measures it (its box then null), so nothing here measures
 * a handle.
 */
async function boxOf(page: Page, selector: string): Promise<{ top: number; width: number; height: number }> {
  const box = await page.evaluate((css) => {
    const rect = document.querySelector(css)?.getBoundingClientRect();
    return rect && { top: rect.top, width: rect.width, height: rect.height };
  }, selector);
  if (!box) throw new Error(`nothing on the page matches ${selector}`);
  return box;
}

async function sizeOf(page: Page, selector: string): Promise<{ width: number; height: number }> {
  const box = await boxOf(page, selector);
  return { width: Math.round(box.width), height: Math.round(box.height) };
}

async function remInPx(page: Page, rem: number): Promise<number> {
  return Math.round(
    await page.evaluate((n) => n * parseFloat(getComputedStyle(document.documentElement).fontSize), rem),
  );
}

test('the prize icons are bundled: the gift page, the game and the redeem page show them without the icon service or any request off this machine', async ({
  page,
  watch,
  gift,
}) => {
  expect(await visit(page, `/gifts/${gift.giftId}`)).toBe(200);
  const giftIcon = loadedIcon(page.locator('.p-gift__prize-icon'));
  await giftIcon.waitFor();
  expect(await giftIcon.getAttribute('data-icon')).toMatch(/^mdi:[a-z-]+$/);
  const side = await remInPx(page, GIFT_ICON_REM);
  expect(await sizeOf(page, '.p-gift__prize-icon svg[data-icon][data-state="loaded"]')).toEqual({
    width: side,
    height: side,
  });
  await loadedIcon(page.getByRole('button', { name: 'Share link' })).waitFor();

  expect(await visit(page, '/game')).toBe(200);
  await page.getByRole('button', { name: 'Box 2' }).click();
  const outcome = page.getByRole('region', { name: 'You won!' });
  await outcome.waitFor();
  await loadedIcon(outcome.locator('.p-game__prize')).waitFor();

  expect(await visit(page, `/redeem/${gift.redeemId}`)).toBe(200);
  await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
  await loadedIcon(page.locator('.p-redeem__gift-icon')).waitFor();

  expect(service().requests).toEqual([]);
  expect(offMachine).toEqual([]);
  expect(iconWarnings).toEqual([]);
  expect(watch.problems()).toEqual([]);
});

test.describe('a prize whose icon is not bundled', () => {
  let giftId = '';

  test.beforeAll(async () => {
    test.setTimeout(60_000);
    const catalogue = join(TMP_DIR, 'icons-catalogue.json');
    writeOnePrizeCatalogue(catalogue, FALLBACK_ICON, 100);
    // A database of its own, seeded from the test catalogue.
    await restartServer('api', { env: { PRIZE_CATALOGUE_FILE: catalogue, PGLITE_DATA_DIR: freshApiDataDir('icons') } });
    giftId = await winGift();
  });

  test('comes from the icon service once, then from the browser cache across reloads and pages', async ({
    page,
    watch,
  }) => {
    // The answer held until the placeholder has been seen and measured, then let go (a fixed delay
    // would race the app's timeout on a busy machine).
    service().setMode({ kind: 'held' });
    expect(await visit(page, `/gifts/${giftId}`)).toBe(200);
    const icon = `.p-gift__prize-icon [data-icon="${FALLBACK_ICON}"]`;
    await page.locator(`span[data-icon="${FALLBACK_ICON}"][data-state="loading"]`).waitFor();
    const side = await remInPx(page, GIFT_ICON_REM);
    expect(await sizeOf(page, icon)).toEqual({ width: side, height: side });
    const valueTopWhileLoading = (await boxOf(page, '.p-gift__value')).top;
    service().release();

    await loadedIcon(page, FALLBACK_ICON).waitFor();
    expect(await sizeOf(page, icon)).toEqual({ width: side, height: side });
    expect((await boxOf(page, '.p-gift__value')).top).toBe(valueTopWhileLoading);
    expect(service().requests).toEqual([{ path: '/mdi.json', icons: 'rocket-launch', aborted: false }]);

    await page.reload();
    await loadedIcon(page, FALLBACK_ICON).waitFor();
    expect(await visit(page, `/redeem/${await openRedeemSession(giftId)}`)).toBe(200);
    await loadedIcon(page.locator('.p-redeem__gift-icon'), FALLBACK_ICON).waitFor();
    expect(service().requests).toHaveLength(1);

    expect(offMachine).toEqual([]);
    expect(iconWarnings).toEqual([]);
    expect(watch.problems()).toEqual([]);
  });

  test('is an empty box of the same size, logged once, when the service is slower than the timeout or fails; the page works', async ({
    page,
    watch,
  }) => {
    expect(await visit(page, '/about')).toBe(200);
    await page.evaluate(() => localStorage.clear());

    // Slow: the app gives up after its timeout, long before this answer would come.
    service().setMode({ kind: 'slow', delayMs: 30_000 });
    expect(await visit(page, `/gifts/${giftId}`)).toBe(200);
    const icon = `.p-gift__prize-icon [data-icon="${FALLBACK_ICON}"]`;
    await page.locator(`span[data-icon="${FALLBACK_ICON}"][data-state="loading"]`).waitFor();
    const valueTopWhileLoading = (await boxOf(page, '.p-gift__value')).top;
    await page.locator(`span[data-icon="${FALLBACK_ICON}"][data-state="failed"]`).waitFor({ timeout: 15_000 });
    const side = await remInPx(page, GIFT_ICON_REM);
    expect(await sizeOf(page, icon)).toEqual({ width: side, height: side });
    expect(await page.locator(icon).innerHTML()).toBe('');
    expect((await boxOf(page, '.p-gift__value')).top).toBe(valueTopWhileLoading);
    expect(iconWarnings).toEqual([
      `Icon "${FALLBACK_ICON}" is shown as an empty box: no answer within ${ICON_TIMEOUT_MS} ms`,
    ]);
    // The browser closed the request: the server sees it a moment later.
    // Signal instead of a 50 ms polling loop: expect.poll on the stand-in's record until it saw the close.
    await expect
      .poll(() => service().requests, { timeout: 5_000 })
      .toEqual([{ path: '/mdi.json', icons: 'rocket-launch', aborted: true }]);

    // The page works; the icon is not asked for again on the way to the redeem page.
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
    await page.locator(`.p-redeem__gift-icon span[data-icon="${FALLBACK_ICON}"][data-state="failed"]`).waitFor();
    expect(service().requests).toHaveLength(1);
    expect(watch.problems()).toEqual([]);

    // Failing: an error status, the same empty box.
    service().reset();
    service().setMode({ kind: 'fail', status: 503 });
    iconWarnings = [];
    await page.reload();
    await page.locator(`.p-redeem__gift-icon span[data-icon="${FALLBACK_ICON}"][data-state="failed"]`).waitFor();
    expect(iconWarnings).toEqual([
      `Icon "${FALLBACK_ICON}" is shown as an empty box: the icon service answered HTTP 503`,
    ]);
    expect(service().requests).toHaveLength(1);
    await page.getByRole('button', { name: 'Redeem my gift' }).waitFor();
    expect(offMachine).toEqual([]);
    // The browser reports the 503 itself; nothing else went wrong.
    expect(watch.problems().filter((problem) => !problem.includes('status of 503'))).toEqual([]);
  });
});
