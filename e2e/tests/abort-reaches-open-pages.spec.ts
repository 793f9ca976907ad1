/**
 * An abort reaches every page already open on the canary on its next navigation, with the
 * version check's default interval (an hour), on the production topology (nginx in front of the
 * host's server and the deployed remotes). A canary of the content remote runs for every
 * visitor; the host's server tells its pages to ask for their builds on each navigation while it
 * runs. After the remote's canary command aborts it, a page opened on the canary gets the stable
 * build on its next in-app navigation, with one full load and no second; and a page whose
 * canary code throws, once the deployment no longer gives it that build, loads the stable build
 * instead of showing the error page. A canary page the visitor goes back to after the switch (the
 * browser shows it from its HTTP cache, without asking the server) leaves the canary too: at its
 * next navigation, or at once when its code throws, with one full load. The test prints how long
 * the open page stayed on the aborted canary.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { errorPage, followLink, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { variantBuild } from '../support/build-variants';
import { runCanary } from '../support/canary';
import { expect, test } from '../support/fixtures';
import { CONTENT_DIST, readLatest } from '../support/redeploy';
import { TMP_DIR } from '../support/test-env';
import { sharedTopology } from '../support/shared-topology';
import { type Topology } from '../support/topology';

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

const CONFIG_ELEMENT_ID = 'gift-box-config';
/** At 100 % every cohort gets the canary: this one is the visitor's. */
const COHORT = 4242;
const BUILDS_DIR = join(TMP_DIR, 'abort-builds');

let topology: Topology;
let stable: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // No BUILD_CHECK_INTERVAL_MS: the page polls its builds once an hour, as by default.
  topology = await sharedTopology({ apiCount: 1 });
  stable = readLatest(topology.remoteFolder('content')).id;
});

test.afterAll(async () => {
  rmSync(BUILDS_DIR, { recursive: true, force: true });
});

/** The content build the host's server gives the visitor now. */
async function servedBuild(): Promise<string | undefined> {
  const res = await fetch(`${topology.origin}/remote-builds.json`, { headers: { cookie: `gb_cohort=${COHORT}` } });
  return ((await res.json()) as { builds: Record<string, string> }).builds.content;
}

/** Starts a canary of a copy of the content build with `fault`, for every visitor, once the host's server serves it. */
async function startCanary(name: string, fault: 'good' | 'throws-rendering'): Promise<string> {
  const id = `${name}-${Date.now().toString(36)}`;
  const dir = variantBuild(CONTENT_DIST, join(BUILDS_DIR, name), id, fault);
  await runCanary('content', topology.remoteFolder('content'), ['start', '--from', dir, '--percent', '100']);
  await expect.poll(servedBuild, { timeout: 20_000 }).toBe(id);
  return id;
}

/** Aborts the canary; gives when the command had written it, and when the host's server first gave the stable build. */
async function abortCanary(): Promise<{ abortedAt: number; readAt: number }> {
  await runCanary('content', topology.remoteFolder('content'), ['abort', '--reason', 'abort-reaches-open-pages']);
  const abortedAt = Date.now();
  await expect.poll(servedBuild, { timeout: 20_000 }).toBe(stable);
  return { abortedAt, readAt: Date.now() };
}

/** A visitor of the cohort, with the page they browse and the documents it has loaded. */
async function visitor(context: BrowserContext): Promise<{ page: Page; documents: string[] }> {
  await context.addCookies([{ name: 'gb_cohort', value: String(COHORT), url: topology.origin }]);
  const page = await context.newPage();
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      documents.push(new URL(request.url()).pathname);
  });
  return { page, documents };
}

/** The content build the page's inline configuration names, and whether it asks for its builds on navigation. */
async function pageConfig(page: Page): Promise<{ build: string | undefined; onNavigation: boolean }> {
  const text = await page.locator(`#${CONFIG_ELEMENT_ID}`).textContent();
  const config = JSON.parse(text ?? '{}') as {
    remoteBuilds?: Record<string, string>;
    checkBuildsOnNavigation?: boolean;
  };
  return { build: config.remoteBuilds?.content, onNavigation: config.checkBuildsOnNavigation === true };
}

test('a page open on a canary gets the stable build on its next navigation after the abort, with one full load', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const canary = await startCanary('abort-good', 'good');
  const context = await browser.newContext({ baseURL: topology.origin });
  try {
    const { page, documents } = await visitor(context);
    expect(await visit(page, '/about')).toBe(200);
    await waitForRenderedPage(page);
    expect(await pageConfig(page)).toEqual({ build: canary, onNavigation: true });
    // While the canary runs, navigations stay in the app.
    await followLink(page, navLink(page, 'Terms'), '/terms');
    expect(documents).toEqual(['/about']);

    const { abortedAt, readAt } = await abortCanary();
    await followLink(page, navLink(page, 'Privacy'), '/privacy-policy');
    const shownAt = Date.now();
    expect(documents).toEqual(['/about', '/privacy-policy']);
    expect((await pageConfig(page)).build).toBe(stable);
    await expect(errorPage(page)).toHaveCount(0);
    // The same builds from then on: the next navigation stays in the app.
    await followLink(page, navLink(page, 'About'), '/about');
    expect(documents).toEqual(['/about', '/privacy-policy']);

    console.log(
      `[abort] the host's server gave the stable build ${readAt - abortedAt} ms after the abort; ` +
        `the page open on the aborted canary ran it ${shownAt - abortedAt} ms after the abort, ` +
        `at its first navigation (its version check polls once an hour)`,
    );
  } finally {
    await context.close();
  }
});

test('a page whose canary code throws once the deployment no longer gives it that build loads the stable build, not the error page', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const canary = await startCanary('abort-throws', 'throws-rendering');
  const context = await browser.newContext({ baseURL: topology.origin });
  try {
    const { page, documents } = await visitor(context);
    // The page is sent while the canary runs, and its code runs once the canary is aborted: its
    // document is held on the way until then, as a page opened just before an abort.
    let released: () => void = () => undefined;
    const release = new Promise<void>((resolve) => (released = resolve));
    let held: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (held = resolve));
    await page.route(
      (url) => url.pathname === '/terms',
      async (route) => {
        const response = await route.fetch();
        held();
        await release;
        await route.fulfill({ response });
      },
      { times: 1 },
    );
    const opened = visit(page, '/terms');
    await holding;
    await abortCanary();
    released();
    await opened;

    await page.waitForURL((url) => url.pathname === '/terms');
    await expect.poll(() => documents.length, { timeout: 20_000 }).toBe(2);
    await waitForRenderedPage(page);
    expect(documents).toEqual(['/terms', '/terms']);
    expect((await pageConfig(page)).build).toBe(stable);
    await expect(errorPage(page)).toHaveCount(0);
    // The tab will not be sent back to the build it found throwing.
    const broken = await page.evaluate(() => sessionStorage.getItem('p-broken-builds'));
    expect(JSON.parse(broken ?? '{}')).toMatchObject({ content: [canary, expect.any(Number)] });
  } finally {
    await context.close();
  }
});

test('a canary page the visitor goes back to after the switch gets the stable build at its next navigation', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const canary = await startCanary('back-good', 'good');
  const context = await browser.newContext({ baseURL: topology.origin });
  try {
    const { page, documents } = await visitor(context);
    expect(await visit(page, '/about')).toBe(200);
    await waitForRenderedPage(page);
    await abortCanary();
    await followLink(page, navLink(page, 'Privacy'), '/privacy-policy');
    expect((await pageConfig(page)).build).toBe(stable);

    // Back: the browser shows the canary's document from its cache, without asking the server.
    await page.goBack({ waitUntil: 'domcontentloaded' });
    await waitForRenderedPage(page);
    expect((await pageConfig(page)).build).toBe(canary);
    await followLink(page, navLink(page, 'Terms'), '/terms');
    expect(documents).toEqual(['/about', '/privacy-policy', '/about', '/terms']);
    expect((await pageConfig(page)).build).toBe(stable);
    // That page is the stable build's: the next navigation stays in the app.
    await followLink(page, navLink(page, 'About'), '/about');
    expect(documents).toHaveLength(4);
  } finally {
    await context.close();
  }
});

test('a page whose canary code throws, brought back after the switch, loads the stable build once, not the error page', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const canary = await startCanary('back-throws', 'throws-rendering');
  const context = await browser.newContext({ baseURL: topology.origin });
  try {
    const { page, documents } = await visitor(context);
    // While the canary runs, its visitors see its error page: the deployment still gives them it.
    expect(await visit(page, '/terms')).toBe(200);
    await expect(errorPage(page)).toBeVisible();
    await abortCanary();
    await followLink(page, navLink(page, 'Privacy'), '/privacy-policy');
    expect(documents).toEqual(['/terms', '/privacy-policy']);
    expect((await pageConfig(page)).build).toBe(stable);

    // Back: the canary's document from the browser's cache, whose code throws again.
    await page.goBack({ waitUntil: 'domcontentloaded' });
    await expect.poll(() => documents.length, { timeout: 20_000 }).toBe(4);
    await waitForRenderedPage(page);
    expect(documents).toEqual(['/terms', '/privacy-policy', '/terms', '/terms']);
    expect(new URL(page.url()).pathname).toBe('/terms');
    expect((await pageConfig(page)).build).toBe(stable);
    await expect(errorPage(page)).toHaveCount(0);
    const broken = await page.evaluate(() => sessionStorage.getItem('p-broken-builds'));
    expect(JSON.parse(broken ?? '{}')).toMatchObject({ content: [canary, expect.any(Number)] });
  } finally {
    await context.close();
  }
});
