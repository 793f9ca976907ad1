/**
 * An operator's site, opened at any address, that keeps private pages out of search engines and
 * fits a small phone's header.
 *
 * Every server runs with the configuration `npm start` gives it (only the ports moved), and the
 * content remote serves a build made with the operator's variables set, so what the pages show
 * comes from them. The file has a worker and servers of its own: the content server starts once
 * that build exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { mainNav, visit, waitForRenderedPage } from '../support/app-page';
import { expect, test } from '../support/fixtures';
import { httpGet } from '../support/http';
import { CONTENT_DIST, sharedContentBuild } from '../support/redeploy';
import { DEFAULT_CONFIGURATION, startServer } from '../support/servers';
import { HOST_ORIGIN, originOf, TEST_PORTS, VALID_ID } from '../support/test-env';

/** The operator's build variables of the content remote. */
const OPERATOR = {
  OPERATOR_NAME: 'Acme Gifts Ltd',
  OPERATOR_ADDRESS: '12 High Street, Leeds LS1 4AB',
  OPERATOR_CONTACT_EMAIL: 'help@acme-gifts.test',
  TERMS_UPDATED: '2027-02-03',
  PRIVACY_UPDATED: '2027-01-15',
};
const NOINDEX = /\bnoindex\b/;

/** What a template's placeholder looks like; none may reach a visitor. */
const PLACEHOLDERS = [
  /\[[^\]\n]{1,80}\]/,
  /\{\{[^}\n]*\}\}/,
  /sample text/i,
  /replace every placeholder/i,
  /lorem ipsum/i,
  /\b(?:TODO|TBD|FIXME)\b/,
];

function placeholdersIn(text: string): string[] {
  return PLACEHOLDERS.flatMap((pattern) => text.match(pattern) ?? []);
}

/** A payload's visible text: its title and its HTML without tags. */
function payloadText(file: string): string {
  const { title, html } = JSON.parse(readFileSync(file, 'utf8')) as { title: string; html: string };
  return `${title}\n${html.replace(/<[^>]*>/g, ' ')}`;
}

function payloadFiles(dist: string): string[] {
  const dir = join(dist, 'payload');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(dir, name));
}

/** The content remote built with the operator's variables (made once per run); the content server serves it. */
let operatorBuild: string;

const defaults = { env: DEFAULT_CONFIGURATION };
// Every server but content with the default configuration; content starts below, from the build.
test.use({
  serverOptions: {
    servers: { host: defaults, gifts: defaults, redeem: defaults, api: defaults },
    only: ['host', 'gifts', 'redeem', 'api'],
  },
});

test.beforeAll(async () => {
  // The build takes a while on a busy machine, or waits for another worker making it.
  test.setTimeout(300_000);
  operatorBuild = (await sharedContentBuild('content-operator', (markdown) => markdown, OPERATOR)).dir;
  await startServer('content', { env: { ...DEFAULT_CONFIGURATION, STATIC_ROOT: operatorBuild } });
});

async function mainText(page: Page, path: string): Promise<string> {
  expect(await visit(page, path)).toBe(200);
  await waitForRenderedPage(page);
  return page.locator('main').innerText();
}

test.describe("an operator's site, not a sample", () => {
  test('no published content payload holds a placeholder, with the defaults or the variables set', () => {
    for (const dist of [CONTENT_DIST, operatorBuild]) {
      const files = payloadFiles(dist);
      expect(files.length).toBeGreaterThanOrEqual(4);
      for (const file of files)
        expect({ file, placeholders: placeholdersIn(payloadText(file)) }).toEqual({ file, placeholders: [] });
    }
  });

  test('the content server publishes the build made with the variables, every page of it', async () => {
    for (const file of payloadFiles(operatorBuild)) {
      const name = file.slice(file.lastIndexOf('/') + 1);
      const served = await httpGet(`${originOf('content')}/payload/${name}`);
      expect(served.status).toBe(200);
      expect(served.body).toBe(readFileSync(file, 'utf8'));
    }
  });

  for (const [path, date] of [
    ['/about', undefined],
    ['/terms', 'Last updated: 3 February 2027.'],
    ['/privacy-policy', 'Last updated: 15 January 2027.'],
  ] as const) {
    test(`${path} names the configured operator, address and contact, with no placeholder`, async ({ page, watch }) => {
      const text = await mainText(page, path);
      expect(text).toContain('Acme Gifts Ltd');
      expect(text).toContain('12 High Street, Leeds LS1 4AB');
      const contact = page.locator('main a[href="mailto:help@acme-gifts.test"]').first();
      expect(await contact.innerText()).toBe('help@acme-gifts.test');
      // The date opens the text, right under the title.
      if (date) expect(text.split('\n').filter((line) => line.trim() !== '')[1]).toBe(date);
      expect(placeholdersIn(text)).toEqual([]);
      expect(text).not.toMatch(/development/i);
      expect(watch.problems()).toEqual([]);
    });
  }

  test('the configured values change what the page shows: the default build names the development operator', () => {
    const about = payloadText(join(CONTENT_DIST, 'payload', 'about.json'));
    const configured = payloadText(join(operatorBuild, 'payload', 'about.json'));
    expect(about).toMatch(/\(development\)/);
    expect(about).not.toContain('Acme Gifts Ltd');
    expect(configured).toContain('Acme Gifts Ltd');
  });

  test('About never asks for a gift link: it says never to send it', async ({ page }) => {
    const text = await mainText(page, '/about');
    const contact = text.slice(text.lastIndexOf('Contact'));
    expect(contact).toContain('Never send us your gift link');
    expect(contact).not.toMatch(/includ\w* (?:its|the|your) link/i);
  });
});

test.describe('any address works with the default configuration', () => {
  for (const address of ['127.0.0.1', '127.0.0.2']) {
    test(`at http://${address} the journey home → game → gift has no error`, async ({ page, watch }) => {
      const origin = `http://${address}:${TEST_PORTS.host}`;
      const hostnames = new Set<string>();
      page.on('request', (request) => hostnames.add(new URL(request.url()).hostname));

      expect(await visit(page, `${origin}/`)).toBe(200);
      await waitForRenderedPage(page);
      await mainNav(page).getByRole('link', { name: 'Play', exact: true }).click();
      await page.waitForURL(`${origin}/game`);
      await page.getByRole('button', { name: 'Box 2' }).click();
      await page.getByRole('heading', { name: 'You won!' }).waitFor();
      await page.getByRole('link', { name: 'Open your gift' }).click();
      await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
      const giftUrl = page.url();
      expect(giftUrl.startsWith(`${origin}/gifts/`)).toBe(true);

      // A gift page opened directly: the server's preloads and the API at this address too.
      expect(await visit(page, giftUrl)).toBe(200);
      await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
      expect(watch.problems()).toEqual([]);
      expect(watch.failedRequests).toEqual([]);
      expect([...hostnames]).toEqual([address]);
    });
  }
});

test.describe('the header on a 320 px wide phone', () => {
  for (const path of ['/', '/about', '/game', '/terms']) {
    test(`on ${path} it is compact and no link sits alone on a line`, async ({ page, watch }) => {
      await page.setViewportSize({ width: 320, height: 640 });
      expect(await visit(page, path)).toBe(200);
      await waitForRenderedPage(page);
      const header = await page.locator('header').first().boundingBox();
      expect(header?.height).toBeLessThanOrEqual(100);

      const links = mainNav(page).getByRole('link');
      const names = await links.allInnerTexts();
      expect(names).toEqual(['Home', 'Play', 'About', 'Privacy', 'Terms']);
      const lines = new Map<number, string[]>();
      for (const [index, name] of names.entries()) {
        const box = await links.nth(index).boundingBox();
        if (!box) throw new Error(`the ${name} link is not rendered`);
        // Reachable: on screen, and a target of a usable size.
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(320);
        expect(box.height).toBeGreaterThanOrEqual(24);
        const line = Math.round(box.y);
        lines.set(line, [...(lines.get(line) ?? []), name]);
      }
      for (const line of lines.values()) expect(line.length).toBeGreaterThan(1);
      // Nothing spills sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      expect(watch.problems()).toEqual([]);
    });
  }
});

test.describe('search engines', () => {
  test('robots.txt disallows the private pages and allows the rest', async () => {
    const robots = await httpGet(`${HOST_ORIGIN}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(robots.body.split('\n')).toEqual([
      'User-agent: *',
      'Disallow: /gifts/',
      'Disallow: /redeem/',
      'Allow: /',
      '',
    ]);
  });

  for (const kind of ['gift', 'redeem'] as const) {
    test(`the ${kind} page is noindex, by header and by meta tag`, async ({ page, gift }) => {
      const path = kind === 'gift' ? `/gifts/${gift.giftId}` : `/redeem/${gift.redeemId}`;
      const response = await page.goto(path, { waitUntil: 'domcontentloaded' });
      expect(response?.status()).toBe(200);
      expect(response?.headers()['x-robots-tag']).toMatch(NOINDEX);
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toMatch(NOINDEX);
    });
  }

  test('a malformed gift link is noindex too', async () => {
    const response = await httpGet(`${HOST_ORIGIN}/gifts/not-${VALID_ID}`, { accept: 'text/html' });
    expect(response.headers.get('x-robots-tag')).toMatch(NOINDEX);
  });

  for (const path of ['/', '/about', '/game', '/terms', '/privacy-policy']) {
    test(`${path} stays indexable`, async ({ page }) => {
      const response = await page.goto(path, { waitUntil: 'domcontentloaded' });
      expect(response?.status()).toBe(200);
      expect(response?.headers()['x-robots-tag']).toBeUndefined();
      expect(await page.locator('meta[name="robots"]').count()).toBe(0);
    });
  }
});
