/**
 * The voucher as a visitor uses it, in a real browser against the real API: what it says (how,
 * where, conditions, until when), its QR code, its code on a small phone, printing it, the way
 * home; the redeem form that survives a look at the terms; a prize value that says something.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jsQR from 'jsqr';
import type { Locator, Page } from '@playwright/test';
import { winGift } from '../support/api';
import { freshApiDataDir } from '../support/api-data';
import { visit, waitForRenderedPage } from '../support/app-page';
import { openSession } from '../support/browser';
import { clipboardText } from '../support/clipboard';
import { expect, test } from '../support/fixtures';
import { restartServer } from '../support/servers';
import { HOST_ORIGIN, ROOT_DIR, TMP_DIR } from '../support/test-env';

const EMAIL = 'winner@example.com';
const CODE = /^[0-9A-Z]{4}(-[0-9A-Z]{4}){6}$/;

// A group of tests restarts the API with another prize catalogue: this file gets servers of its
// own (all of them, as the suite starts them).
test.use({ serverOptions: { servers: {} } });

const emailField = (page: Page) => page.getByRole('textbox', { name: /Email address/ });
const termsBox = (page: Page) => page.getByRole('checkbox', { name: /I accept the terms/ });

/** A new gift, opened and redeemed in this page's browser, which is then shown its voucher. */
async function redeemNewGift(page: Page): Promise<string> {
  await fillRedeemForm(page);
  await page.getByRole('button', { name: 'Redeem my gift' }).click();
  await page.getByRole('heading', { name: 'Your gift is redeemed' }).waitFor();
  return voucherCode(page);
}

function codeElement(page: Page): Locator {
  return page.getByRole('group', { name: 'Voucher code' }).locator('code');
}

async function voucherCode(page: Page): Promise<string> {
  const code = (await codeElement(page).textContent()) ?? '';
  expect(code).toMatch(CODE);
  return code;
}

/** What a camera would read from the QR code as the page draws it. */
async function scanQr(qr: Locator): Promise<string | undefined> {
  const size = 330;
  const pixels = await qr.evaluate(async (svg, side) => {
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext('2d');
    if (!context) return [];
    context.drawImage(image, 0, 0, side, side);
    return Array.from(context.getImageData(0, 0, side, side).data);
  }, size);
  return jsQR(Uint8ClampedArray.from(pixels), size, size)?.data;
}

test('the voucher says how and where to use it, its conditions and until when, shows a QR code of the code, copies exactly, and leads home', async ({
  context,
  page,
  watch,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: HOST_ORIGIN });
  const code = await redeemNewGift(page);

  const howTo = page.getByRole('region', { name: 'How to use your voucher' });
  expect(await howTo.isVisible()).toBe(true);
  expect((await howTo.innerText()).length).toBeGreaterThan('How to use your voucher'.length + 10);
  const conditions = page.getByRole('region', { name: 'Conditions' });
  expect((await conditions.innerText()).length).toBeGreaterThan('Conditions'.length + 10);
  // A date (and time) weeks or months away: "Valid until May 2, 2030, 14:09".
  const validity = page.getByText(/^Valid until /);
  expect(await validity.innerText()).toMatch(/^Valid until [A-Z][a-z]+ \d{1,2}, \d{4}, \d{2}:\d{2}$/);
  const until = new Date((await validity.locator('time').getAttribute('datetime')) ?? '');
  expect(until.getTime()).toBeGreaterThan(Date.now() + 7 * 24 * 60 * 60 * 1000);

  const qr = page.getByRole('img', { name: 'QR code of your voucher code' });
  await qr.waitFor();
  expect(await qr.evaluate((element) => element.tagName.toLowerCase())).toBe('svg');
  expect(await scanQr(qr)).toBe(code);

  await page.getByRole('button', { name: 'Copy code' }).click();
  await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  expect(await clipboardText(context)).toBe(code);

  // After a reload, the same voucher with the same details.
  await page.reload();
  await page.getByRole('heading', { name: 'Your gift is redeemed' }).waitFor();
  expect(await voucherCode(page)).toBe(code);
  await page.getByRole('region', { name: 'Conditions' }).waitFor();

  await page.getByRole('link', { name: 'Back to home' }).click();
  await page.waitForURL(`${HOST_ORIGIN}/`);
  expect(watch.problems()).toEqual([]);
});

test('on a 320 px wide phone the code is at least 18 px, wraps between its groups, and nothing scrolls sideways', async ({
  browser,
}) => {
  const phone = await openSession(browser, { viewport: { width: 320, height: 640 } });
  try {
    const { page } = await phone.newPage();
    const code = await redeemNewGift(page);
    const element = codeElement(page);
    const fontSize = await element.evaluate((node) => parseFloat(getComputedStyle(node).fontSize));
    expect(fontSize).toBeGreaterThanOrEqual(18);

    const layout = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
    const codeBox = await element.evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth }));
    expect(codeBox.scroll).toBeLessThanOrEqual(codeBox.client);

    // Every group on one line, whole: the lines break between groups only.
    const groups = await element
      .locator('.p-redeem__code-group')
      .evaluateAll((nodes) => nodes.map((node) => ({ text: node.textContent, lines: node.getClientRects().length })));
    expect(groups.map((group) => group.text).join('')).toBe(code);
    expect(groups.every((group) => group.lines === 1)).toBe(true);
  } finally {
    await phone.close();
  }
});

test('printing the voucher keeps the code, the QR code, the prize, conditions and validity, on one page, without the site’s header or buttons', async ({
  page,
}) => {
  await redeemNewGift(page);
  expect(await page.locator('header').first().isVisible()).toBe(true);

  await page.emulateMedia({ media: 'print' });

  expect(await page.locator('header').first().isVisible()).toBe(false);
  await page.getByRole('img', { name: 'QR code of your voucher code' }).waitFor();
  for (const name of ['Copy code', 'Print voucher']) {
    expect(await page.getByRole('button', { name }).isVisible()).toBe(false);
  }
  expect(await page.getByRole('link', { name: 'Back to home' }).isVisible()).toBe(false);
  expect(await codeElement(page).isVisible()).toBe(true);
  expect(await page.getByRole('img', { name: 'QR code of your voucher code' }).isVisible()).toBe(true);
  expect(await page.locator('.p-redeem__ticket h2').isVisible()).toBe(true);
  expect(await page.getByRole('region', { name: 'Conditions' }).isVisible()).toBe(true);
  expect(await page.getByText(/^Valid until /).isVisible()).toBe(true);

  const pdf = await page.pdf({ format: 'A4' });
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? [];
  expect(pages).toHaveLength(1);
});

/** A new redeem session of a new gift in `page`, with the form filled in; gives its address. */
async function fillRedeemForm(page: Page): Promise<string> {
  const giftId = await winGift();
  expect(await visit(page, `/gifts/${giftId}`)).toBe(200);
  await page.getByRole('button', { name: 'Redeem', exact: true }).click();
  await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
  await emailField(page).fill(EMAIL);
  await termsBox(page).check();
  return page.url();
}

test('the terms open in a new tab: the form stays as it was', async ({ context, page }) => {
  const redeemUrl = await fillRedeemForm(page);

  const [terms] = await Promise.all([
    context.waitForEvent('page', { timeout: 5_000 }),
    page.getByRole('link', { name: 'terms' }).click(),
  ]);
  await terms.waitForURL(`${HOST_ORIGIN}/terms`);
  await terms.getByRole('heading', { level: 1 }).waitFor();
  await terms.close();

  expect(page.url()).toBe(redeemUrl);
  expect(await emailField(page).inputValue()).toBe(EMAIL);
  expect(await termsBox(page).isChecked()).toBe(true);
});

test('terms read in the same tab, then Back: the typed email and the ticked box are there; once redeemed, nothing is kept', async ({
  page,
}) => {
  await fillRedeemForm(page);

  // Within the app, as a link to the terms would go.
  await page.evaluate(() => {
    history.pushState(null, '', '/terms');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor({ state: 'detached' });
  await page.goBack();
  // The draft is the app's to restore: the host's server renders the form empty.
  await waitForRenderedPage(page);
  await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
  expect(await emailField(page).inputValue()).toBe(EMAIL);
  expect(await termsBox(page).isChecked()).toBe(true);

  // And after a full page load of the terms.
  expect(await visit(page, '/terms')).toBe(200);
  await page.goBack();
  // The draft is the app's to restore: the host's server renders the form empty.
  await waitForRenderedPage(page);
  await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
  expect(await emailField(page).inputValue()).toBe(EMAIL);
  expect(await termsBox(page).isChecked()).toBe(true);

  await page.getByRole('button', { name: 'Redeem my gift' }).click();
  await page.getByRole('heading', { name: 'Your gift is redeemed' }).waitFor();
  expect(await page.evaluate(() => sessionStorage.getItem('p-redeem-draft'))).toBeNull();
});

test.describe('the shipped tote bag', () => {
  test.beforeAll(async () => {
    // The API starts a whole PostgreSQL (PGlite), slow on a busy machine.
    test.setTimeout(120_000);
    // The shipped catalogue with only the tote bag, so every win is one.
    const shipped = JSON.parse(readFileSync(join(ROOT_DIR, 'api', 'catalogue.json'), 'utf8')) as {
      prizes: { id: string }[];
    };
    const catalogue = join(TMP_DIR, 'tote-bag-catalogue.json');
    writeFileSync(catalogue, JSON.stringify({ prizes: shipped.prizes.filter((prize) => prize.id === 'tote-bag') }));
    await restartServer('api', {
      env: { PRIZE_CATALOGUE_FILE: catalogue, PGLITE_DATA_DIR: freshApiDataDir('voucher') },
    });
  });

  test('says what it is worth, not "Tote bag" again, on the gift and redeem pages', async ({ page }) => {
    const giftId = await winGift();
    expect(await visit(page, `/gifts/${giftId}`)).toBe(200);
    await page.getByRole('button', { name: 'Redeem', exact: true }).waitFor();
    expect(await page.locator('main').getByText('Tote bag', { exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
    expect(await page.locator('main').getByText('Tote bag', { exact: true }).count()).toBe(1);
    expect(await page.locator('main').getByText('€15', { exact: true }).count()).toBe(1);
  });
});
