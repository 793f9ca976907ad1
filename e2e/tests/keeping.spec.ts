/**
 * A visitor never loses a gift: the game lists this browser's gifts, a reload during a play or
 * Back after it shows the play again without spending another, the win card gives the link, the
 * browser that redeemed a gift finds its voucher from the gift page, and the daily limit says when
 * plays come back in the visitor's own time. Each test is a new browser context (a new visitor).
 * The file restarts the API: it has a worker and servers of its own.
 */
import type { Page } from '@playwright/test';
import { visit, waitForRenderedPage } from '../support/app-page';
import { openSession } from '../support/browser';
import { clipboardText } from '../support/clipboard';
import { expect, test } from '../support/fixtures';
import { restartServer } from '../support/servers';
import { HOST_ORIGIN } from '../support/test-env';

/** The suite's API allows this many plays a day (servers.ts). */
const PLAYS_PER_DAY = 1000;

// Servers of its own, started with the suite's settings: this file restarts the API.
test.use({ serverOptions: { servers: {} } });

// A route still holding a request when the test ends is no failure of the test.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

const yourGifts = (page: Page) => page.getByRole('region', { name: 'Your gifts' });
const playsLeft = (page: Page, count: number) => page.getByText(`${count} plays left today`, { exact: true });

async function winOnce(page: Page, box = 2): Promise<string> {
  await page.getByRole('button', { name: `Box ${box}` }).click();
  await page.getByRole('heading', { name: 'You won!' }).waitFor();
  const href = await page.getByRole('link', { name: 'Open your gift' }).getAttribute('href');
  return href?.split('/')[2] ?? '';
}

test('a reload while a play is on its way shows that play when the page is back, and spends no second play', async ({
  page,
  watch,
}) => {
  expect(await visit(page, '/game')).toBe(200);
  await waitForRenderedPage(page, { headingOnly: true });

  // The API takes the play; its answer never reaches the page, which reloads first.
  let reached: () => void = () => undefined;
  const played = new Promise<void>((resolve) => (reached = resolve));
  await page.route('**/api/game/plays', async (route) => {
    await route.fetch();
    reached();
  });
  await page.getByRole('button', { name: 'Box 3' }).click();
  await played;
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();

  await page.getByRole('heading', { name: 'You won!' }).waitFor();
  await playsLeft(page, PLAYS_PER_DAY - 1).waitFor();
  await expect(yourGifts(page).getByRole('listitem').count()).resolves.toBe(1);

  // The next play is the second one.
  await page.getByRole('button', { name: 'Play again' }).click();
  await winOnce(page, 1);
  await playsLeft(page, PLAYS_PER_DAY - 2).waitFor();
  await expect(yourGifts(page).getByRole('listitem').count()).resolves.toBe(2);
  expect(watch.problems({ allowDocumentErrorStatus: false })).toEqual([]);
});

test("a win is kept: the card gives the gift's link to copy, Back shows it again, and the game lists it after a reload", async ({
  context,
  page,
  watch,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await visit(page, '/game');
  const giftId = await winOnce(page);
  const link = `${new URL(page.url()).origin}/gifts/${giftId}`;

  await expect(page.getByRole('textbox', { name: 'Your gift’s link' }).inputValue()).resolves.toBe(link);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByText('Link copied').waitFor();
  await expect(clipboardText(page.context())).resolves.toBe(link);

  await page.getByRole('link', { name: 'Open your gift' }).click();
  await page.waitForURL(`**/gifts/${giftId}`);
  await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
  await page.goBack();
  await page.getByRole('heading', { name: 'You won!' }).waitFor();

  await page.getByRole('button', { name: 'Play again' }).click();
  await page.reload();
  const listed = yourGifts(page).getByRole('link');
  await listed.first().waitFor();
  await expect(listed.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).resolves.toEqual([
    `/gifts/${giftId}`,
  ]);
  await expect(listed.first().innerText()).resolves.toContain('Ready to redeem');
  await listed.first().click();
  await page.waitForURL(`**/gifts/${giftId}`);
  expect(watch.problems()).toEqual([]);
});

test('the browser that redeemed a gift sees its voucher again from the gift page; another browser does not', async ({
  browser,
  page,
}) => {
  await visit(page, '/game');
  const giftId = await winOnce(page);
  await page.getByRole('link', { name: 'Open your gift' }).click();
  await page.getByRole('button', { name: 'Redeem', exact: true }).click();
  await page.getByRole('textbox', { name: /Email address/ }).fill('keeper@example.com');
  await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
  await page.getByRole('button', { name: 'Redeem my gift' }).click();
  const code = await page.getByRole('group', { name: 'Voucher code' }).innerText();
  const redeemUrl = page.url();

  await visit(page, `/gifts/${giftId}`);
  await page.getByRole('link', { name: 'See your voucher' }).click();
  await page.waitForURL(redeemUrl);
  await expect(page.getByRole('group', { name: 'Voucher code' }).innerText()).resolves.toBe(code);
  await visit(page, '/game');
  await expect(yourGifts(page).getByRole('link').first().innerText()).resolves.toContain('Redeemed');

  // Another browser: a context of its own, sharing nothing with the first.
  const session = await openSession(browser, { baseURL: HOST_ORIGIN });
  try {
    const stranger = await session.newPage();
    await visit(stranger.page, `/gifts/${giftId}`);
    await stranger.page.getByRole('status').filter({ hasText: 'Redeemed' }).first().waitFor();
    await expect(stranger.page.getByRole('link', { name: 'See your voucher' }).count()).resolves.toBe(0);
  } finally {
    await session.close();
  }
});

test.describe('on a 1280 × 800 screen', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('at 1280 × 800 the whole win card is on screen, "Open your gift" included', async ({ page }) => {
    await visit(page, '/game');
    await winOnce(page);
    // Once the card has slid into place.
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every(
          (animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
        ),
    );
    const outcome = await page.getByRole('region', { name: 'You won!' }).boundingBox();
    const open = await page.getByRole('link', { name: 'Open your gift' }).boundingBox();
    expect(outcome?.y).toBeGreaterThanOrEqual(0);
    expect((outcome?.y ?? 0) + (outcome?.height ?? 0)).toBeLessThanOrEqual(800);
    expect((open?.y ?? 0) + (open?.height ?? 0)).toBeLessThanOrEqual(800);
  });
});

test("a gift's page shows the prize and its Redeem button at once, not after the unwrap", async ({ page }) => {
  await visit(page, '/game');
  await winOnce(page);
  await page.getByRole('link', { name: 'Open your gift' }).click();
  await page.getByRole('button', { name: 'Redeem', exact: true }).waitFor();
  const timing = await page.locator('.p-gift__card').evaluate((card) =>
    card.getAnimations().map((animation) => {
      const { delay = 0, duration = 0 } = animation.effect?.getComputedTiming() ?? {};
      return { delay, duration: Number(duration) };
    }),
  );
  // The card may slide in, but it starts at once and is there within 0.4 s.
  for (const { delay, duration } of timing) {
    expect(delay).toBe(0);
    expect(duration).toBeLessThanOrEqual(400);
  }
});

test.describe('with one play a day', () => {
  const timeZone = 'Pacific/Auckland';
  test.use({ timezoneId: timeZone });

  // The file's last group: the next file's servers start the API again with their own settings.
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    await restartServer('api', { env: { PLAYS_PER_VISITOR_PER_DAY: '1' } });
  });

  // Midnight UTC, when the API's day ends, is 13:00 in Auckland in summer and 12:00 in winter.
  const comeBackIn = (zone: string): string => {
    const now = new Date();
    const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' });
    const time = new Intl.DateTimeFormat('en', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const when = day.format(reset) === day.format(now) ? 'today' : 'tomorrow';
    return `at ${time.format(reset)} ${when}`;
  };

  test("says when plays come back, in the visitor's time zone", async ({ page }) => {
    await visit(page, '/game');
    await page.getByRole('button', { name: 'Box 1' }).click();
    await page.getByRole('heading', { name: 'You won!' }).waitFor();
    const expected = comeBackIn(timeZone);
    expect(expected).toMatch(/^at (12|13):00 (today|tomorrow)$/);
    await page.getByText(`That was your last play for today. New plays ${expected}.`).waitFor();
    await expect(page.getByRole('button', { name: 'Play again' }).count()).resolves.toBe(0);
  });
});
