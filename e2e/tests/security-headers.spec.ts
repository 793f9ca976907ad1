/**
 * The security headers of the host's pages, with every third party switched on (loopback
 * stand-ins for Mixpanel, Google's tag, Crisp and the icon service): every route of the route
 * table, an unknown path's 404 and a malformed id's carry them; the policy is enforced (a script
 * from elsewhere or inline does not run, and the browser reports it); another site cannot frame
 * a page; and the whole journey, home to voucher, with analytics accepted, the tag, the chat and
 * an icon from the icon service, meets no Content-Security-Policy violation.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { REMOTES, type RemoteSpec } from 'shared/remotes';
import { freshApiDataDir } from '../support/api-data';
import { errorPage, followLink, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { describeViolation, type PageWatch } from '../support/browser';
import { writeOnePrizeCatalogue } from '../support/catalogue';
import { startCollector, type Collector } from '../support/collector';
import { startCrispStandIn, waitForStandIn, type CrispStandIn } from '../support/crisp-stand-in';
import { expect, test, type Gift } from '../support/fixtures';
import { gtagRecord, startGtagStandIn, type GtagStandIn } from '../support/gtag-stand-in';
import { httpGet, httpGetPage, type HttpResult } from '../support/http';
import { startIconServiceStandIn, type IconServiceStandIn } from '../support/icon-service-stand-in';
import { HOST_ORIGIN, REMOTE_NAMES, TMP_DIR, originOf, standInPort } from '../support/test-env';

const CRISP_PORT = standInPort(0);
const GTAG_PORT = standInPort(1);
const COLLECTOR_PORT = standInPort(2);
const ICONS_PORT = standInPort(3);
/** Another site: the page that tries to frame the host's, and the origin of refused scripts. */
const ELSEWHERE_PORT = standInPort(4);
const ELSEWHERE = `http://127.0.0.1:${ELSEWHERE_PORT}`;

/** The only prize of the suite's catalogue has an icon that is not bundled: the icon service draws it. */
const SERVICE_ICON = 'mdi:rocket-launch';
const CATALOGUE = join(TMP_DIR, 'security-headers-catalogue.json');
const EMAIL = 'headers.winner@example.com';

// Written as the file loads: the worker's servers (the API seeded from it) start before any hook
// of the file runs.
writeOnePrizeCatalogue(CATALOGUE, SERVICE_ICON, 1000);

let crisp: CrispStandIn | undefined;
let gtag: GtagStandIn | undefined;
let collector: Collector | undefined;
let icons: IconServiceStandIn | undefined;
let elsewhere: Server | undefined;
/** Paths the other site was asked for. */
const elsewhereRequests: string[] = [];

test.beforeAll(async () => {
  [crisp, gtag, collector, icons] = await Promise.all([
    startCrispStandIn(CRISP_PORT),
    startGtagStandIn(GTAG_PORT),
    startCollector(COLLECTOR_PORT),
    startIconServiceStandIn(ICONS_PORT),
  ]);
  elsewhere = createServer((request, response) => {
    elsewhereRequests.push(request.url ?? '');
    const path = new URL(request.url ?? '/', ELSEWHERE).pathname;
    if (path === '/framing') {
      const target = new URL(request.url ?? '/', ELSEWHERE).searchParams.get('target') ?? '/';
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>Another site</title><iframe title="framed" src="${HOST_ORIGIN}${target}"></iframe>`,
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/javascript' });
    response.end('window.__fromElsewhere = true;');
  });
  await new Promise<void>((resolve) => elsewhere?.listen(ELSEWHERE_PORT, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  elsewhere?.closeAllConnections();
  await Promise.all([
    crisp?.close(),
    gtag?.close(),
    collector?.close(),
    icons?.close(),
    new Promise((resolve) => (elsewhere ? elsewhere.close(resolve) : resolve(undefined))),
  ]);
});

test.use({
  serverOptions: {
    servers: {
      host: {
        env: {
          MIXPANEL_TOKEN: 'e2e-token',
          MIXPANEL_API_HOST: `http://127.0.0.1:${COLLECTOR_PORT}`,
          GTAG_MEASUREMENT_ID: 'G-E2ETEST01',
          GTAG_SCRIPT_URL: `http://127.0.0.1:${GTAG_PORT}/gtag/js`,
          CRISP_WEBSITE_ID: '00000000-0000-4000-8000-000000000000',
          CRISP_SCRIPT_URL: `http://localhost:${CRISP_PORT}/l.js`,
          ICON_SERVICE_URL: `http://127.0.0.1:${ICONS_PORT}`,
          // The test's requests come from loopback, as a proxy's would.
          TRUST_PROXY: 'loopback',
        },
      },
      // Its own database, seeded from the catalogue above.
      api: { env: { PRIZE_CATALOGUE_FILE: CATALOGUE, PGLITE_DATA_DIR: freshApiDataDir('security-headers') } },
    },
  },
});

/** Every route of the route table (the registry of remotes), with the test's real ids. */
function routePaths(gift: Gift): string[] {
  return Object.values<RemoteSpec>(REMOTES)
    .flatMap((remote) => Object.values(remote.exposes).flatMap((module) => module.routes.map((route) => route.path)))
    .map((path) => path.replace(':giftId', gift.giftId).replace(':redeemId', gift.redeemId));
}

const NOT_FOUND = ['/no-such-page', '/gifts/not-an-id'];

/** The policy as `{ directive: [sources] }`. */
function policyOf(result: HttpResult): Record<string, string[]> {
  const header = result.headers.get('content-security-policy');
  if (!header) throw new Error('no Content-Security-Policy header');
  return Object.fromEntries(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

const REMOTE_ORIGINS = REMOTE_NAMES.map(originOf);

function expectPageHeaders(path: string, result: HttpResult): void {
  const policy = policyOf(result);
  // Scripts: the page's origin, the remotes', Google's tag loader's folder only (not its host) and
  // the chat's loader; nothing inline, no eval.
  expect([path, [...(policy['script-src'] ?? [])].sort()]).toEqual([
    path,
    ["'self'", ...REMOTE_ORIGINS, `http://127.0.0.1:${GTAG_PORT}/gtag/`, `http://localhost:${CRISP_PORT}`].sort(),
  ]);
  expect(result.headers.get('content-security-policy')).not.toMatch(/'unsafe-eval'/);
  expect(policy['default-src']).toEqual(["'none'"]);
  expect(policy['object-src']).toEqual(["'none'"]);
  expect(policy['base-uri']).toEqual(["'none'"]);
  expect(policy['frame-ancestors']).toEqual(["'none'"]);
  expect(policy['connect-src']).toEqual(
    expect.arrayContaining([
      "'self'",
      originOf('api'),
      ...REMOTE_ORIGINS,
      `http://127.0.0.1:${COLLECTOR_PORT}`,
      `http://127.0.0.1:${ICONS_PORT}`,
    ]),
  );
  expect({
    path,
    coop: result.headers.get('cross-origin-opener-policy'),
    referrer: result.headers.get('referrer-policy'),
    nosniff: result.headers.get('x-content-type-options'),
    frameOptions: result.headers.get('x-frame-options'),
    hsts: result.headers.get('strict-transport-security'),
  }).toEqual({
    path,
    coop: 'same-origin',
    referrer: 'strict-origin-when-cross-origin',
    nosniff: 'nosniff',
    frameOptions: 'DENY',
    // Plain HTTP, and no proxy said otherwise.
    hsts: null,
  });
  const features = result.headers.get('permissions-policy')?.split(', ') ?? [];
  expect(features).toEqual(expect.arrayContaining(['clipboard-write=(self)', 'camera=()', 'geolocation=()']));
  expect(result.headers.get('vary')).toMatch(/\bAccept-Encoding\b/);
}

test.describe('the headers', () => {
  test('every route of the route table, an unknown path and a malformed id carry the security headers', async ({
    gift,
  }) => {
    const paths = routePaths(gift);
    expect(paths).toHaveLength(7);
    for (const path of paths) {
      const result = await httpGetPage(`${HOST_ORIGIN}${path}`);
      expect([path, result.status]).toEqual([path, 200]);
      expectPageHeaders(path, result);
    }
    for (const path of NOT_FOUND) {
      const result = await httpGetPage(`${HOST_ORIGIN}${path}`);
      expect([path, result.status]).toEqual([path, 404]);
      expectPageHeaders(path, result);
    }
  });

  test('the configuration and the built files are never sniffed, and carry no page policy', async () => {
    for (const path of ['/config.json', '/robots.txt', '/_app/builds/latest.json']) {
      const result = await httpGet(`${HOST_ORIGIN}${path}`);
      expect([path, result.status, result.headers.get('x-content-type-options')]).toEqual([path, 200, 'nosniff']);
      expect(result.headers.get('content-security-policy')).toBeNull();
    }
  });

  test('a page that a proxy TRUST_PROXY names says came over HTTPS gets HSTS', async () => {
    const page = await httpGet(`${HOST_ORIGIN}/`, { accept: 'text/html', 'x-forwarded-proto': 'https' });
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const config = await httpGet(`${HOST_ORIGIN}/config.json`, { 'x-forwarded-proto': 'https' });
    expect(config.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const plain = await httpGet(`${HOST_ORIGIN}/`, { accept: 'text/html', 'x-forwarded-proto': 'http' });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });
});

test.describe('in the browser', () => {
  /** Console warnings of the page, such as a Permissions-Policy feature the browser does not know. */
  function warningsOf(page: Page): string[] {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    return warnings;
  }

  test('every route, an unknown path and a malformed id render with no violation and no warning about the headers', async ({
    page,
    watch,
    gift,
  }) => {
    const warnings = warningsOf(page);
    for (const path of routePaths(gift)) {
      expect([path, await visit(page, path)]).toEqual([path, 200]);
      await waitForRenderedPage(page, { headingOnly: true });
    }
    for (const path of NOT_FOUND) {
      expect([path, await visit(page, path)]).toEqual([path, 404]);
      await errorPage(page).waitFor();
    }
    expect(
      warnings.filter((text) => /Permissions-Policy|Content Security Policy|Content-Security-Policy/i.test(text)),
    ).toEqual([]);
    expect(watch.violations.map(describeViolation)).toEqual([]);
    expect(watch.problems({ allowDocumentErrorStatus: true })).toEqual([]);
  });

  test('enforces the policy: a script from another origin, or inline, does not run, and the browser reports it', async ({
    page,
    watch,
  }) => {
    expect(await visit(page, '/about')).toBe(200);
    await waitForRenderedPage(page, { headingOnly: true });
    elsewhereRequests.length = 0;
    await page.evaluate((src) => {
      const external = document.createElement('script');
      external.src = src;
      document.head.append(external);
      const inline = document.createElement('script');
      inline.textContent = 'window.__inline = true;';
      document.head.append(inline);
    }, `${ELSEWHERE}/injected.js`);
    // Signal instead of a 50 ms polling loop: expect.poll on the violations the page reports to the test.
    await expect
      .poll(() => watch.violations.length, { message: 'the violations of both scripts', timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    const ran = await page.evaluate(() => ({
      external: (window as { __fromElsewhere?: boolean }).__fromElsewhere ?? false,
      inline: (window as { __inline?: boolean }).__inline ?? false,
    }));
    expect(ran).toEqual({ external: false, inline: false });
    // Not even asked for.
    expect(elsewhereRequests).toEqual([]);
    const refused = watch.violations.map((violation) => [violation.directive, violation.blocked]);
    expect(refused).toEqual([
      ['script-src-elem', `${ELSEWHERE}/injected.js`],
      ['script-src-elem', 'inline'],
    ]);
  });

  test('another site cannot frame a page', async ({ page, gift }) => {
    const framedResponses: number[] = [];
    page.on('response', (response) => {
      if (response.url() === `${HOST_ORIGIN}/redeem/${gift.redeemId}`) framedResponses.push(response.status());
    });
    await page.goto(`${ELSEWHERE}/framing?target=/redeem/${gift.redeemId}`);
    await page.locator('iframe').waitFor();
    const frame = await (await page.locator('iframe').elementHandle())?.contentFrame();
    if (!frame) throw new Error('the iframe has no frame');
    await frame.waitForLoadState('load');
    // The host answered; the browser refused to show its answer inside another site.
    expect(framedResponses).toEqual([200]);
    expect(frame.url()).not.toContain(HOST_ORIGIN);
    expect(await frame.evaluate(() => document.getElementById('root') !== null)).toBe(false);
  });
});

test('the whole journey, home to voucher, with analytics, the tag, the chat and the icon service on, meets no violation', async ({
  context,
  page,
  watch,
}) => {
  // A new visitor (the test's own context): nothing kept from the tests before (consent, cached icons).
  await journey(context, page, watch);
});

async function journey(context: BrowserContext, page: Page, watch: PageWatch): Promise<void> {
  await context.grantPermissions(['clipboard-write'], { origin: HOST_ORIGIN });
  icons?.reset();
  collector?.reset();
  gtag?.reset();
  crisp?.reset();

  // Home: the consent question, accepted; the tag and the chat start.
  expect(await visit(page, '/')).toBe(200);
  await waitForRenderedPage(page, { headingOnly: true });
  const banner = page.getByRole('region', { name: 'Cookies and analytics' });
  await banner.getByRole('button', { name: 'Accept' }).click();
  await banner.waitFor({ state: 'detached' });
  await waitForStandIn(page);
  expect((await gtagRecord(page)).id).toBe('G-E2ETEST01');

  // The game: a win, whose prize icon comes from the icon service, and its link copied.
  await followLink(page, navLink(page, 'Play'), '/game', { headingOnly: true });
  await page.getByRole('button', { name: 'Box 2' }).click();
  const outcome = page.getByRole('region', { name: 'You won!' });
  await outcome.waitFor();
  await outcome.locator(`svg[data-icon="${SERVICE_ICON}"][data-state="loaded"]`).waitFor();
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByText('Link copied').waitFor();

  // The gift page, then redeem it and see the voucher with its QR code.
  await page.getByRole('link', { name: 'Open your gift' }).click();
  await page.waitForURL(/\/gifts\/[A-Za-z0-9_-]{24}$/);
  await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
  await page.getByRole('button', { name: 'Redeem', exact: true }).click();
  await page.waitForURL(/\/redeem\/[A-Za-z0-9_-]{24}$/);
  await page.getByRole('textbox', { name: /Email address/ }).fill(EMAIL);
  await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
  await page.getByRole('button', { name: 'Redeem my gift' }).click();
  await page.getByRole('group', { name: 'Voucher code' }).waitFor();
  await page.getByRole('img', { name: 'QR code of your voucher code' }).waitFor();

  // Every third party did its work under the policy.
  await collector?.waitForEvents(4, 30_000);
  expect(icons?.requests.map((request) => request.icons)).toEqual(['rocket-launch']);
  expect(gtag?.requests().length).toBeGreaterThan(0);
  expect(crisp?.requests.length).toBeGreaterThan(0);
  // One document: the journey was client-side, every part loaded under the one policy.
  expect(watch.documentLoads()).toBe(1);
  expect(watch.violations.map(describeViolation)).toEqual([]);
  expect(watch.problems()).toEqual([]);
}
