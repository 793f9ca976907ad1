/**
 * A canary of the content remote on the production topology (nginx in front of the host's server
 * and the deployed remotes): the host's server gives each fresh visitor a cohort and the build
 * their cohort falls on, which they keep across reloads, and a signed preview cookie pins a build
 * for one browser while a forged or unsigned one pins nothing (docs/operations.md, "Canaries and
 * previews"). Build A is remote-content's own build; build B the run's second build of it, whose
 * every heading ends with NEXT_MARK, started as a canary with the remote's canary command.
 */
import type { Browser, BrowserContext, Page, Request } from '@playwright/test';
import { visit, waitForRenderedPage } from '../support/app-page';
import { previewCookie, runCanary } from '../support/canary';
import { expect, test } from '../support/fixtures';
import { CONTENT_DIST, describeBuild, nextContentBuild, removeRedeployFolders, type Build } from '../support/redeploy';
import { sharedTopology } from '../support/shared-topology';
import { type Topology } from '../support/topology';

const PREVIEW_KEY = 'canary-spec-content-preview-key-for-tests-only';
/** The element of a page's inline runtime configuration, and the cookie of a visitor's cohort. */
const CONFIG_ELEMENT_ID = 'gift-box-config';
const COHORT_COOKIE = 'gb_cohort';
const VISITORS = 20;

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

let topology: Topology;
let buildA: Build;
let buildB: Build;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  buildA = describeBuild(CONTENT_DIST);
  const [started, built] = await Promise.all([
    sharedTopology({ apiCount: 1, hostEnv: { REMOTE_CONTENT_PREVIEW_KEY: PREVIEW_KEY } }),
    nextContentBuild(),
  ]);
  topology = started;
  buildB = built;
});

test.afterAll(async () => {
  removeRedeployFolders();
});

/** What a visitor's About page ran: the content build its configuration names, its heading, the content scripts it fetched. */
interface Visit {
  build: string | undefined;
  heading: string;
  scripts: string[];
}

/** Opens (or reloads) /about in the context's page and tells which content build it runs. */
async function visitAbout(context: BrowserContext): Promise<Visit> {
  const page: Page = context.pages()[0] ?? (await context.newPage());
  const scripts: string[] = [];
  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script' && url.pathname.startsWith('/remotes/content/')) scripts.push(url.pathname);
  };
  page.on('request', onRequest);
  expect(await visit(page, '/about')).toBe(200);
  const { heading } = await waitForRenderedPage(page);
  page.off('request', onRequest);
  const config = await page.evaluate(
    (id) => JSON.parse(document.getElementById(id)?.textContent ?? 'null') as { remoteBuilds?: Record<string, string> },
    CONFIG_ELEMENT_ID,
  );
  return { build: config.remoteBuilds?.content, heading, scripts };
}

/** The visit ran `build` whole: its configuration, its text, and every content script from its folder. */
function expectBuild(visit: Visit, build: Build): void {
  expect(visit.build).toBe(build.info.id);
  expect(visit.heading).toBe(build.aboutTitle);
  const own = (path: string) =>
    build === buildB ? path.startsWith(`/remotes/content/builds/${build.info.id}/`) : !path.includes('/builds/');
  expect(visit.scripts.filter((path) => !own(path))).toEqual([]);
}

/** The content build the /about page's inline configuration names, asked with the context's cookies (no page loaded). */
async function htmlBuild(context: BrowserContext): Promise<string | undefined> {
  const html = await (await context.request.get('/about', { headers: { accept: 'text/html' } })).text();
  return /"remoteBuilds":\{[^}]*"content":"([^"]+)"/.exec(html)?.[1];
}

/** The content build the host's server gives `cohort` now. */
async function buildFor(cohort: number): Promise<string | undefined> {
  const res = await fetch(`${topology.origin}/remote-builds.json`, {
    headers: { cookie: `${COHORT_COOKIE}=${cohort}` },
  });
  return ((await res.json()) as { builds: Record<string, string> }).builds.content;
}

/** A cohort the host's server gives B (`inside` the canary) or A, asking it cohort by cohort. */
async function cohortOf(inside: boolean): Promise<number> {
  const wanted = inside ? buildB.info.id : buildA.info.id;
  for (let cohort = 0; cohort < 100; cohort += 1) if ((await buildFor(cohort)) === wanted) return cohort;
  throw new Error(`no cohort of the first 100 gets build ${wanted}`);
}

/** Waits until the host's server has read the deployment: `cohort` gets `build`. */
async function untilServed(cohort: number, build: Build): Promise<void> {
  await expect.poll(() => buildFor(cohort), { timeout: 20_000 }).toBe(build.info.id);
}

/** Fresh visitors: a context each, in the one browser. */
function freshVisitors(browser: Browser, count: number): Promise<BrowserContext[]> {
  return Promise.all(Array.from({ length: count }, () => browser.newContext({ baseURL: topology.origin })));
}

test('20 fresh visitors with a 50 % canary: both builds served, each keeps its build across reloads; 0 % and 100 % give one build', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const folder = topology.remoteFolder('content');
  expect(await runCanary('content', folder, ['start', '--from', buildB.dir, '--percent', '50'])).toContain(
    `build ${buildB.info.id} runs for 50 % of visitors`,
  );
  // The host's server has read the canary once some cohort gets it.
  await expect
    .poll(async () => (await cohortOf(true).catch(() => undefined)) !== undefined, { timeout: 20_000 })
    .toBe(true);
  const inside = await cohortOf(true);
  const outside = await cohortOf(false);

  const contexts = await freshVisitors(browser, VISITORS);
  try {
    // Each fresh visitor's first page gives them a cohort and names its build; twenty visitors
    // at 50 % get both builds. Their pages are asked for, not loaded: loading one of each build
    // below shows a browser runs the build its page names.
    const builds = await Promise.all(contexts.map(htmlBuild));
    expect(new Set(builds)).toEqual(new Set([buildA.info.id, buildB.info.id]));

    // Each visitor keeps their cohort, and with it their build.
    expect(await Promise.all(contexts.map(htmlBuild))).toEqual(builds);
    for (const build of [buildA, buildB]) {
      const visit = await visitAbout(contexts[builds.indexOf(build.info.id)] as BrowserContext);
      expectBuild(visit, build);
      // The page fetched its remote's scripts, from its build's folder.
      expect(visit.scripts.length).toBeGreaterThan(0);
    }

    // 0 %: every visitor gets A; 100 %: every visitor gets B. Each visitor's page asked with their cookies.
    for (const [percent, build] of [
      [0, buildA],
      [100, buildB],
    ] as const) {
      await runCanary('content', folder, ['set', String(percent)]);
      await untilServed(percent === 0 ? inside : outside, build);
      const served = await Promise.all(contexts.map(htmlBuild));
      expect(new Set(served)).toEqual(new Set([build.info.id]));
    }
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
  }
});

test('a forged or unsigned preview cookie pins nothing; one signed with the remote’s key runs the pinned build', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const folder = topology.remoteFolder('content');
  // No canary: every visitor runs A, and B is only in its own copy.
  const status = await runCanary('content', folder, ['status']);
  if (!/canary +none/.test(status)) await runCanary('content', folder, ['abort']);
  await expect
    .poll(async () => (await cohortOf(true).catch(() => undefined)) === undefined, { timeout: 20_000 })
    .toBe(true);

  const signed = previewCookie(topology.origin, PREVIEW_KEY, 'content', buildB.info.id);
  const cookies = [
    { ...signed, value: `${signed.value.slice(0, -6)}AAAAAA` },
    { ...signed, value: `v1~content~${buildB.info.id}~${Math.floor(Date.now() / 1000) + 600}~` },
    previewCookie(topology.origin, 'another-key-that-is-not-the-content-teams-own', 'content', buildB.info.id),
  ];
  const [context] = await freshVisitors(browser, 1);
  try {
    for (const cookie of cookies) {
      await context?.addCookies([cookie]);
      expectBuild(await visitAbout(context as BrowserContext), buildA);
    }
    await context?.addCookies([signed]);
    const page = context?.pages()[0] as Page;
    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/about');
    const pinned = await visitAbout(context as BrowserContext);
    expectBuild(pinned, buildB);
    expect(pinned.scripts.length).toBeGreaterThan(0);
    expect((await answer).headers()['cache-control']).toBe('private, no-store');
  } finally {
    await context?.close();
  }
});
