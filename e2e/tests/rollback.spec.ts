/**
 * A remote's builds kept whole, so that a host can be pinned to one and a
 * rollback can make an earlier one current again while visitors are on the site.
 *
 * Build A is remote-content's own build; build B is the run's second build of it, with other
 * text (and so new chunk names). The content server serves a deploy target
 * (STATIC_ROOT) into which the remote's deploy and rollback commands publish.
 */
import type { Page, Request } from '@playwright/test';
import { navLink, visit, waitForRenderedPage } from '../support/app-page';
import { expect, test } from '../support/fixtures';
import {
  describeBuild,
  type Build,
  CONTENT_DIST,
  deployContentRemote,
  nextContentBuild,
  readLatest,
  removeRedeployFolders,
  rollbackContentRemote,
  tempFolder,
} from '../support/redeploy';
import { restartServer } from '../support/servers';
import { HOST_ORIGIN, originOf } from '../support/test-env';
import { nextBuildsAnswer, versionCheckGate } from '../support/version-check';

// The content server and the host are restarted with other settings: servers of its own. Its
// pages need no API, which stays up idle for the next file.
test.use({ serverOptions: { only: ['host', 'gifts', 'redeem', 'content'], leaveIdle: true } });

const CONTENT_ORIGIN = originOf('content');

let buildA: Build;
let buildB: Build;

test.beforeAll(async () => {
  // The run's second build may still be in the making, in this worker or another.
  test.setTimeout(240_000);
  buildA = describeBuild(CONTENT_DIST);
  buildB = await nextContentBuild();
});

test.afterAll(removeRedeployFolders);

/** The "Updated" date of the content page shown: the timestamp of the build whose code drew it. */
function updatedAt(page: Page): Promise<string | null> {
  return page.locator('main .p-content__updated time').getAttribute('datetime');
}

function isoOf(build: Build): string {
  return new Date(build.info.timestamp).toISOString();
}

async function waitForHeading(page: Page, heading: string): Promise<void> {
  await page.waitForFunction((text) => document.querySelector('main h1')?.textContent?.trim() === text, heading, {
    timeout: 20_000,
  });
  await waitForRenderedPage(page);
}

function isDocumentRequest(page: Page, request: Request): boolean {
  return request.isNavigationRequest() && request.frame() === page.mainFrame();
}

function pathOf(url: string): string | undefined {
  const parsed = new URL(url);
  return parsed.origin === CONTENT_ORIGIN ? parsed.pathname : undefined;
}

/** Asks the host's server for a page, as a browser would, until its HTML holds `text`. */
async function waitForServedPage(path: string, text: string): Promise<string> {
  let html = '';
  await expect
    .poll(
      async () => {
        html = await (await fetch(`${HOST_ORIGIN}${path}`, { headers: { accept: 'text/html' } })).text();
        return html;
      },
      { message: `the host's server serves ${path} with ${JSON.stringify(text)}`, timeout: 20_000 },
    )
    .toContain(text);
  return html;
}

test.describe('rolling back the content remote while a visitor is on the site', () => {
  let target: string;

  test.beforeEach(async () => {
    test.setTimeout(60_000);
    target = tempFolder('rollback-target');
    expect(await deployContentRemote(target)).toContain(`build ${buildA.info.id} published`);
    // The remote first: a host started beside it may read it before it listens, and then sends
    // its first pages without the remote's build until its next read.
    await restartServer('content', { env: { STATIC_ROOT: target } });
    await restartServer('host', { env: { BUILD_CHECK_INTERVAL_MS: '1000', REMOTE_REFRESH_MS: '1000' } });
  });

  test.afterEach(async () => {
    test.setTimeout(60_000);
    // The remote first: a host started beside it may read it before it listens, and then sends
    // its first pages without the remote's build until its next read.
    await restartServer('content', { env: {} });
    await restartServer('host', { env: {} });
  });

  test('B deployed over A, then A made current again mid-session: the next navigation shows A, with one full load and no chunk error', async ({
    page,
    watch,
  }) => {
    test.setTimeout(120_000);
    const gate = await versionCheckGate(page);

    // A visitor on build A's home page.
    const tracked = nextBuildsAnswer(page, 'content', buildA.info.id);
    expect(await visit(page, '/')).toBe(200);
    await waitForHeading(page, buildA.homeTitle);
    expect(await updatedAt(page)).toBe(isoOf(buildA));
    await tracked;

    // B is deployed; once the version check has seen it, the next navigation is a full load of B.
    const sawB = nextBuildsAnswer(page, 'content', buildB.info.id);
    expect(await deployContentRemote(target, buildB.dir)).toContain(`build ${buildB.info.id} published`);
    await sawB;
    const loadOfB = page.waitForRequest((request) => isDocumentRequest(page, request), { timeout: 20_000 });
    await navLink(page, 'About').click();
    expect((await loadOfB).url()).toBe(`${HOST_ORIGIN}/about`);
    await waitForHeading(page, buildB.aboutTitle);
    expect(await updatedAt(page)).toBe(isoOf(buildB));
    expect(watch.documentLoads()).toBe(2);

    // Hold the version check, then roll back: A is current again.
    await gate.close();
    const output = await rollbackContentRemote(target);
    expect(output).toContain(`build ${buildA.info.id}`);
    expect(output).toContain(`is current again in ${target}, in place of build ${buildB.info.id}`);
    expect(readLatest(target)).toEqual(buildA.info);

    // Before the check sees it, the page still runs B's entry: Home comes from B's chunk, which
    // the rollback left in place, without a reload and without a chunk error. (Its text is A's
    // payload: payloads are data, put back in place with the rest of A.)
    const chunkOfB = page.waitForResponse((response) => pathOf(response.url()) === `/${buildB.homeChunk}`, {
      timeout: 20_000,
    });
    await navLink(page, 'Home').click();
    expect((await chunkOfB).status()).toBe(200);
    await waitForHeading(page, buildA.homeTitle);
    expect(await updatedAt(page)).toBe(isoOf(buildB));
    expect(watch.documentLoads()).toBe(2);

    // The host's server reads A again (its preloads and prerendered page)…
    const served = await waitForServedPage('/about', `${CONTENT_ORIGIN}/${buildA.aboutChunk}`);
    expect(served).toContain(buildA.aboutTitle);
    expect(served).not.toContain(buildB.aboutTitle);

    // …and once the version check sees A, although A was built before B, the next navigation is
    // a full load of A.
    const sawA = nextBuildsAnswer(page, 'content', buildA.info.id);
    gate.open();
    await sawA;
    const loadOfA = page.waitForRequest((request) => isDocumentRequest(page, request), { timeout: 20_000 });
    const chunkOfA = page.waitForResponse((response) => pathOf(response.url()) === `/${buildA.aboutChunk}`, {
      timeout: 20_000,
    });
    await navLink(page, 'About').click();
    expect((await loadOfA).url()).toBe(`${HOST_ORIGIN}/about`);
    expect((await chunkOfA).status()).toBe(200);
    await waitForHeading(page, buildA.aboutTitle);
    expect(await updatedAt(page)).toBe(isoOf(buildA));
    expect(watch.documentLoads()).toBe(3);

    // No reload loop: the check goes on seeing A, and the next navigation stays in the page.
    await nextBuildsAnswer(page, 'content', buildA.info.id);
    await navLink(page, 'Home').click();
    await page.waitForURL(`${HOST_ORIGIN}/`);
    await waitForHeading(page, buildA.homeTitle);
    expect(await updatedAt(page)).toBe(isoOf(buildA));
    expect(watch.documentLoads()).toBe(3);
    expect(watch.documents.map((load) => load.status)).toEqual([200, 200, 200]);
    expect(watch.problems()).toEqual([]);
    expect(watch.failedRequests).toEqual([]);
  });
});

test.describe('a host pinned to one build of the content remote', () => {
  let target: string;
  let pinned: string;

  test.beforeEach(async () => {
    test.setTimeout(60_000);
    target = tempFolder('pinned-target');
    expect(await deployContentRemote(target)).toContain(`build ${buildA.info.id} published`);
    pinned = `/builds/${buildA.info.id}`;
    // The remote first: a host started beside it may read it before it listens, and then sends
    // its first pages without the remote's build until its next read.
    await restartServer('content', { env: { STATIC_ROOT: target } });
    await restartServer('host', {
      env: {
        REMOTE_CONTENT_URL: `${CONTENT_ORIGIN}${pinned}/mf-manifest.json`,
        BUILD_CHECK_INTERVAL_MS: '1000',
        REMOTE_REFRESH_MS: '1000',
      },
    });
  });

  test.afterEach(async () => {
    test.setTimeout(60_000);
    // The remote first: a host started beside it may read it before it listens, and then sends
    // its first pages without the remote's build until its next read.
    await restartServer('content', { env: {} });
    await restartServer('host', { env: {} });
  });

  test('keeps build A, its pages, its text and its prerendered markup, after B is deployed', async ({
    page,
    watch,
  }) => {
    test.setTimeout(120_000);
    const contentRequests: string[] = [];
    page.on('request', (request) => {
      const path = pathOf(request.url());
      if (path !== undefined) contentRequests.push(path);
    });

    const tracked = nextBuildsAnswer(page, 'content', buildA.info.id);
    expect(await visit(page, '/')).toBe(200);
    await waitForHeading(page, buildA.homeTitle);
    expect(await updatedAt(page)).toBe(isoOf(buildA));
    await tracked;

    // B becomes the remote's current build.
    expect(await deployContentRemote(target, buildB.dir)).toContain(`build ${buildB.info.id} published`);
    expect(readLatest(target).id).toBe(buildB.info.id);

    // The version check keeps seeing A, the build the host is pinned to: no full load is due.
    for (let poll = 0; poll < 2; poll += 1) await nextBuildsAnswer(page, 'content', buildA.info.id);
    await navLink(page, 'About').click();
    await page.waitForURL(`${HOST_ORIGIN}/about`);
    await waitForHeading(page, buildA.aboutTitle);
    expect(await updatedAt(page)).toBe(isoOf(buildA));
    expect(watch.documentLoads()).toBe(1);

    // The host's server, which has read the remote since the deploy, still sends A: its
    // preloads from A's folder and A's prerendered page.
    const served = await waitForServedPage('/about', buildA.aboutTitle);
    expect(served).toContain(`${CONTENT_ORIGIN}${pinned}/remoteEntry.js`);
    expect(served).toContain(`${CONTENT_ORIGIN}${pinned}/${buildA.aboutChunk}`);
    expect(served).not.toContain(buildB.aboutTitle);

    // A new visit is A again.
    expect(await visit(page, '/about')).toBe(200);
    await waitForHeading(page, buildA.aboutTitle);
    expect(await updatedAt(page)).toBe(isoOf(buildA));

    // Everything of content's came from A's own folder, none of B's files were asked for.
    expect(contentRequests.length).toBeGreaterThan(0);
    expect(contentRequests.filter((path) => !path.startsWith(`${pinned}/`))).toEqual([]);
    expect(watch.documentLoads()).toBe(2);
    expect(watch.problems()).toEqual([]);
    expect(watch.failedRequests).toEqual([]);
  });
});
