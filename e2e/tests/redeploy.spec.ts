/**
 * The content remote redeployed while a visitor is on the site.
 *
 * The run's second build of remote-content has other text (and so new chunk names); the content
 * server serves a temporary folder (STATIC_ROOT) that starts as the current build. A careless
 * deploy replaces that folder's files with the new build's only: a chunk gone costs one reload.
 * A safe deploy publishes with the remote's deploy command, which keeps the previous build's
 * files: the page goes on without a reload until its version check sees the new build. Each
 * counts full document loads.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request, Response, Route } from '@playwright/test';
import { layoutName, mainHeading, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { type PageWatch } from '../support/browser';
import { expect, test } from '../support/fixtures';
import {
  describeBuild,
  type Build,
  CONTENT_DIST,
  copyBuild,
  deployContentRemote,
  nextContentBuild,
  NEXT_MARK,
  readLatest,
  removeRedeployFolders,
  replaceFolderContents,
  tempFolder,
} from '../support/redeploy';
import { restartServer } from '../support/servers';
import { HOST_ORIGIN, originOf } from '../support/test-env';
import { nextBuildsAnswer, versionCheckGate } from '../support/version-check';

// Content pages need no API, which stays up idle for the next file; the others are the host and
// the remotes its header links name. The content server and the host are restarted with other
// settings: servers of its own.
test.use({ serverOptions: { only: ['host', 'gifts', 'redeem', 'content'], leaveIdle: true } });

const CONTENT_ORIGIN = originOf('content');
const GUARD_KEY = 'p-reload-guard';

let current: Build;
let next: Build;

test.beforeAll(async () => {
  // The run's second build may still be in the making, in this worker or another.
  test.setTimeout(240_000);
  current = describeBuild(CONTENT_DIST);
  next = await nextContentBuild();
});

test.afterAll(removeRedeployFolders);

function isoOf(timestamp: number): string {
  return new Date(timestamp).toISOString();
}

/** The "Updated" date of the content page shown: its build's timestamp. */
function updatedAt(page: Page): Promise<string | null> {
  return page.locator('main .p-content__updated time').getAttribute('datetime');
}

async function waitForHeading(page: Page, heading: string): Promise<void> {
  await page.waitForFunction((text) => document.querySelector('main h1')?.textContent?.trim() === text, heading, {
    timeout: 20_000,
  });
  await waitForRenderedPage(page);
}

function guardEntry(page: Page): Promise<{ path: string; expires: number } | null> {
  return page.evaluate((key) => {
    const raw = window.sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as { path: string; expires: number }) : null;
  }, GUARD_KEY);
}

/** Waits (in the page's clock) until a reload-guard entry's window has closed. */
async function waitForGuardWindowToPass(page: Page, expires: number): Promise<void> {
  await page.waitForFunction((at) => Date.now() > at, expires, { timeout: 15_000, polling: 100 });
}

function isDocumentRequest(page: Page, request: Request): boolean {
  return request.isNavigationRequest() && request.frame() === page.mainFrame();
}

/** The next document commit in the page (a full load), for waiting on what the new one shows. */
function nextDocument(page: Page): Promise<unknown> {
  return page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 20_000 });
}

function reportLoads(label: string, watch: PageWatch, extra = ''): number {
  const loads = watch.documentLoads();
  console.log(
    `[redeploy] ${label}: document loads ${loads}${extra ? ` (${extra})` : ''}: ${watch.documents.map((load) => `${load.url} ${load.status ?? '-'}`).join(', ')}`,
  );
  return loads;
}

test('the new build of remote-content has other text and new names for its exposed pages’ chunks', () => {
  expect(next.info.id).not.toBe(current.info.id);
  expect(next.info.timestamp).toBeGreaterThan(current.info.timestamp);
  expect(next.aboutTitle).toBe(`${current.aboutTitle}${NEXT_MARK}`);
  expect(next.homeTitle).toBe(`${current.homeTitle}${NEXT_MARK}`);
  expect(next.aboutChunk).not.toBe(current.aboutChunk);
  expect(next.homeChunk).not.toBe(current.homeChunk);
  expect(existsSync(join(next.dir, current.aboutChunk))).toBe(false);
});

test.describe('a remote redeployed without its old files while a visitor is on the site', () => {
  let served: string;

  test.beforeEach(async () => {
    served = tempFolder('served');
    copyBuild(current.dir, served);
    await restartServer('content', { env: { STATIC_ROOT: served } });
  });

  test.afterEach(async () => {
    await restartServer('content', { env: {} });
  });

  test('the missing chunk costs exactly one reload, then the new text; a chunk that keeps failing: one reload, the error, and one more after 10 s', async ({
    page,
    watch,
  }) => {
    test.setTimeout(90_000);

    // A visitor on the home page of the current build.
    expect(await visit(page, '/')).toBe(200);
    await waitForHeading(page, current.homeTitle);
    expect(await updatedAt(page)).toBe(isoOf(current.info.timestamp));

    // The new build replaces every file; the old About chunk is gone.
    replaceFolderContents(served, next.dir);
    expect(existsSync(join(served, current.aboutChunk))).toBe(false);
    expect(readLatest(served).id).toBe(next.info.id);

    // About's chunk was never loaded: the page still knows the old remote entry, asks for the
    // old chunk (three times, with the loader's retries), fails, and reloads /about once.
    const oldChunkRequests: number[] = [];
    page.on('response', (response: Response) => {
      if (response.url() === `${CONTENT_ORIGIN}/${current.aboutChunk}`) oldChunkRequests.push(response.status());
    });
    const reload = page.waitForRequest((request) => isDocumentRequest(page, request), { timeout: 20_000 });
    await navLink(page, 'About').click();
    expect((await reload).url()).toBe(`${HOST_ORIGIN}/about`);
    await waitForHeading(page, next.aboutTitle);
    expect(await updatedAt(page)).toBe(isoOf(next.info.timestamp));
    expect(oldChunkRequests.length).toBeGreaterThanOrEqual(1);
    expect(oldChunkRequests.every((status) => status === 404)).toBe(true);
    expect(
      reportLoads(
        'scenario 2, old chunks removed, navigate to About',
        watch,
        `old About chunk answered ${oldChunkRequests.join('/')}`,
      ),
    ).toBe(2);
    const firstEntry = await guardEntry(page);
    expect(firstEntry).toEqual({ path: '/about', expires: expect.any(Number) });

    // Now About's (new) chunk fails for good. A fresh page on home, once the first reload's
    // window has closed, so that the guard starts from nothing.
    await page.route(
      (url) => url.href === `${CONTENT_ORIGIN}/${next.aboutChunk}`,
      (route: Route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }),
    );
    await waitForGuardWindowToPass(page, (firstEntry as { expires: number }).expires);
    expect(await visit(page, '/')).toBe(200);
    await waitForHeading(page, next.homeTitle);
    const beforeFailure = watch.documentLoads();

    const clickedAt = Date.now();
    const guardedReload = page.waitForRequest((request) => isDocumentRequest(page, request), { timeout: 10_000 });
    const reloadedDocument = nextDocument(page);
    await navLink(page, 'About').click();
    expect((await guardedReload).url()).toBe(`${HOST_ORIGIN}/about`);
    const reloadAfterMs = Date.now() - clickedAt;
    await reloadedDocument;
    // About is prerendered: its text stays, with a note and a retry, instead of the error page.
    expect(await waitForKeptPage(page)).toBe(next.aboutTitle);
    expect(await layoutName(page)).toBe('default');
    expect(watch.documentLoads()).toBe(beforeFailure + 1);
    expect(reloadAfterMs).toBeLessThan(10_000);
    const entry = await guardEntry(page);
    expect(entry?.path).toBe('/about');
    const now = await page.evaluate(() => Date.now());
    expect(entry?.expires).toBeGreaterThan(now);
    expect(entry?.expires).toBeLessThanOrEqual(now + 10_000);
    reportLoads(
      'scenario 2, About chunk failing for good',
      watch,
      `one reload ${reloadAfterMs} ms after the click, then the kept text`,
    );

    // Inside the window, "Try again" does not reload: the retry (which takes its loader's
    // retries, over a second, with the progress bar) ends in the kept text again.
    const progress = page.getByRole('progressbar', { name: 'Loading page' }).first();
    await page.getByRole('button', { name: 'Try again', exact: true }).click();
    await progress.waitFor({ state: 'visible', timeout: 5_000 });
    await progress.waitFor({ state: 'hidden', timeout: 20_000 });
    expect(await waitForKeptPage(page)).toBe(next.aboutTitle);
    expect(watch.documentLoads()).toBe(beforeFailure + 1);

    // Once the window has closed, a new attempt may reload once more, then shows the kept text.
    await waitForGuardWindowToPass(page, entry?.expires ?? 0);
    const secondReload = page.waitForRequest((request) => isDocumentRequest(page, request), { timeout: 15_000 });
    const secondDocument = nextDocument(page);
    await page.getByRole('button', { name: 'Try again', exact: true }).click();
    expect((await secondReload).url()).toBe(`${HOST_ORIGIN}/about`);
    await secondDocument;
    expect(await waitForKeptPage(page)).toBe(next.aboutTitle);
    expect(watch.documentLoads()).toBe(beforeFailure + 2);

    // The rest of the site keeps working, client-side.
    await navLink(page, 'Home').click();
    await waitForHeading(page, next.homeTitle);
    expect(reportLoads('scenario 2, after the 10 s window and back home', watch)).toBe(beforeFailure + 2);
    expect(watch.pageErrors).toEqual([]);
  });
});

/** A prerendered page whose remote failed to load: its text kept, with a note and a retry; gives its heading. */
async function waitForKeptPage(page: Page): Promise<string> {
  const note = page.locator('main [role="status"]').filter({ hasText: 'Part of this page didn’t load' });
  await note.getByRole('button', { name: 'Try again', exact: true }).waitFor({ timeout: 20_000 });
  return (await page.locator('main h1').first().innerText()).trim();
}

test.describe('a safe deploy with the remote’s deploy command', () => {
  let target: string;

  test.beforeEach(async () => {
    test.setTimeout(60_000);
    target = tempFolder('deploy-target');
    // The deploy target starts as the current build, published by the deploy command.
    const output = await deployContentRemote(target);
    expect(output).toContain(`build ${current.info.id} published`);
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

  test('mid-session, the next navigation needs no reload; once the version check sees the new build, the next one is a full load of it', async ({
    page,
    watch,
  }) => {
    test.setTimeout(90_000);

    // The version check's polls pass, except while the gate holds them: the host polls every
    // second, and the test needs one navigation before the poll sees the new build.
    const gate = await versionCheckGate(page);

    // The page runs the content remote's current build, as the host's server says.
    const tracked = nextBuildsAnswer(page, 'content', current.info.id);
    expect(await visit(page, '/')).toBe(200);
    await waitForHeading(page, current.homeTitle);
    await tracked;

    // Hold the version check, then deploy the new build with the deploy command.
    await gate.close();
    const output = await deployContentRemote(target, next.dir);
    expect(output).toContain(`build ${next.info.id} published`);
    expect(readLatest(target).id).toBe(next.info.id);
    for (const chunk of [current.aboutChunk, current.homeChunk, next.aboutChunk, next.homeChunk]) {
      expect(existsSync(join(target, chunk))).toBe(true);
    }

    // The page still runs the old remote entry: About comes from the old build's chunk, which
    // the deploy kept, without a reload. (Its text is the new payload: payloads are data,
    // replaced in place, and the old page code reads them the same way.)
    const oldChunk = page.waitForResponse((response) => response.url() === `${CONTENT_ORIGIN}/${current.aboutChunk}`, {
      timeout: 20_000,
    });
    await navLink(page, 'About').click();
    expect((await oldChunk).status()).toBe(200);
    // The chunk may arrive from the hover's prefetch, before the navigation has committed.
    await page.waitForURL(`${HOST_ORIGIN}/about`);
    await waitForHeading(page, next.aboutTitle);
    expect(await page.evaluate(() => window.location.pathname)).toBe('/about');
    expect(await updatedAt(page)).toBe(isoOf(current.info.timestamp));
    expect(await mainHeading(page).innerText()).toBe(next.aboutTitle);
    expect(reportLoads('scenario 3, after the deploy, navigate to About', watch)).toBe(1);

    // The version check now sees the new build…
    const sawNewBuild = nextBuildsAnswer(page, 'content', next.info.id);
    gate.open();
    await sawNewBuild;

    // …so the next navigation is a full load, of the new build.
    const fullLoad = page.waitForRequest((request) => isDocumentRequest(page, request), { timeout: 20_000 });
    const newChunk = page.waitForResponse((response) => response.url() === `${CONTENT_ORIGIN}/${next.homeChunk}`, {
      timeout: 20_000,
    });
    await navLink(page, 'Home').click();
    expect((await fullLoad).url()).toBe(`${HOST_ORIGIN}/`);
    expect((await newChunk).status()).toBe(200);
    await waitForHeading(page, next.homeTitle);
    expect(await updatedAt(page)).toBe(isoOf(next.info.timestamp));
    expect(reportLoads('scenario 3, after the version check saw the new build, navigate Home', watch)).toBe(2);
    expect(watch.problems()).toEqual([]);
    expect(watch.failedRequests).toEqual([]);
  });
});
