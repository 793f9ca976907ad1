/**
 * Last known good and the version check per visitor on the production topology (nginx in front
 * of the host's server and the deployed remotes). A visitor on a canary of the gifts remote that
 * is aborted runs the stable build from the next navigation, with one full load and no loop. The
 * gifts remote's current build then loses its chunks while a visitor is on the site, after its
 * entry ran; the visitor's next page comes from the build before it (the deployment's `previous`,
 * the page's `remoteFallbacks`), with no error and no reload, and the switch reaches the API's
 * metrics. Build A is remote-gifts' own build; builds B and C copies of it under other ids
 * (build-variants.ts's `good` variant): B deployed over A, C a canary.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from '@playwright/test';
import { errorPage, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { variantBuild } from '../support/build-variants';
import { openSession } from '../support/browser';
import { runCanary } from '../support/canary';
import { expect, test } from '../support/fixtures';
import { readLatest, removeRedeployFolders, tempFolder } from '../support/redeploy';
import { ROOT_DIR } from '../support/test-env';
import { sharedTopology } from '../support/shared-topology';
import { deployRemote, type Topology } from '../support/topology';
import { nextBuildsAnswer, versionCheckGate } from '../support/version-check';

const GIFTS_DIST = join(ROOT_DIR, 'remote-gifts', 'dist');
const CONFIG_ELEMENT_ID = 'gift-box-config';

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

let topology: Topology;
const buildA = readLatest(GIFTS_DIST).id;
const buildB = `${buildA}-b`;
const buildC = `${buildA}-c`;
/** A visitor's cohort: any, as the canary runs for every visitor. */
const COHORT = 'gb_cohort=7';

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // The API reads the parts' deployments every second, so it knows B's id by the time it is told;
  // pages check for new builds every second.
  topology = await sharedTopology({
    apiCount: 1,
    apiEnv: { BUILDS_POLL_MS: '1000' },
    hostEnv: { BUILD_CHECK_INTERVAL_MS: '1000' },
  });
  const folder = topology.remoteFolder('gifts');
  const dir = variantBuild(GIFTS_DIST, tempFolder('last-known-good'), buildB, 'good');
  expect(await deployRemote('gifts', folder, dir)).toContain(`build ${buildB} published`);
  expect(readLatest(folder)).toMatchObject({ id: buildB, previous: buildA });
  await untilServed(buildB);
});

/** The gifts build the host's server gives a visitor of COHORT now. */
async function servedBuild(): Promise<string | undefined> {
  const answer = await fetch(`${topology.origin}/remote-builds.json`, { headers: { cookie: COHORT } });
  return ((await answer.json()) as { builds: Record<string, string> }).builds.gifts;
}

/** Waits until the host's server has read the deployment: it gives `build`. */
async function untilServed(build: string): Promise<void> {
  await expect.poll(servedBuild, { timeout: 20_000 }).toBe(build);
}

/** The gifts build a page's inline configuration names, and its fallback. */
async function configuredGifts(page: Page): Promise<{ build?: string; fallback?: string }> {
  const config = await page.evaluate(
    (id) => JSON.parse(document.getElementById(id)?.textContent ?? '{}') as Record<string, Record<string, string>>,
    CONFIG_ELEMENT_ID,
  );
  return { build: config.remoteBuilds?.gifts, fallback: config.remoteFallbacks?.gifts };
}

test.afterAll(async () => {
  removeRedeployFolders();
});

/** Removes a build's chunks (every script but its entry) from the folder that serves it. */
function deleteChunks(dir: string): string[] {
  const chunks = readdirSync(dir).filter((file) => /\.js(\.br|\.gz)?$/.test(file) && !file.startsWith('remoteEntry.'));
  for (const file of chunks) rmSync(join(dir, file));
  return chunks;
}

/** The API's metric lines for `name` with every label of `labels`. */
async function metricLines(name: string, labels: Record<string, string>): Promise<string[]> {
  const text = await (await fetch(`http://${topology.apis[0]?.metrics}/metrics`)).text();
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) && wanted.every((part) => line.includes(part)));
}

test('a visitor whose canary is aborted runs the stable build from the next navigation, with one full load and no loop', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const folder = topology.remoteFolder('gifts');
  const dir = variantBuild(GIFTS_DIST, tempFolder('last-known-good-canary'), buildC, 'good');
  expect(await runCanary('gifts', folder, ['start', '--from', dir, '--percent', '100'])).toContain(buildC);
  await untilServed(buildC);
  const session = await openSession(browser, { baseURL: topology.origin });
  await session.context.addCookies([{ name: 'gb_cohort', value: COHORT.split('=')[1] ?? '', url: topology.origin }]);
  const { page, watch } = await session.newPage();
  const gate = await versionCheckGate(page);

  expect(await visit(page, '/game')).toBe(200);
  await waitForRenderedPage(page);
  expect((await configuredGifts(page)).build).toBe(buildC);
  await nextBuildsAnswer(page, 'gifts', buildC);

  // Aborted: once the page's check hears it, the next navigation is a full load of the stable build.
  // The checks are held meanwhile: the first answer naming B makes the page stale, and a stale
  // page asks no more, so the test must be waiting for it before it comes (answers still naming
  // C, before the host's server has read the abort, change nothing).
  await gate.close();
  await runCanary('gifts', folder, ['abort']);
  const toStable = nextBuildsAnswer(page, 'gifts', buildB);
  gate.open();
  await toStable;
  await navLink(page, 'Home').click();
  await page.waitForURL(`${topology.origin}/`);
  await waitForRenderedPage(page);
  expect(watch.documentLoads()).toBe(2);
  expect((await configuredGifts(page)).build).toBe(buildB);

  // No loop: the page runs what it is told, and its navigations stay in the page.
  await navLink(page, 'Play').click();
  await page.waitForURL(`${topology.origin}/game`);
  await waitForRenderedPage(page);
  await nextBuildsAnswer(page, 'gifts', buildB);
  await navLink(page, 'Home').click();
  await page.waitForURL(`${topology.origin}/`);
  await waitForRenderedPage(page);
  expect(watch.documentLoads()).toBe(2);
  expect(watch.pageErrors).toEqual([]);
  await session.close();
});

test("the current build's chunks deleted mid-session: the next page comes from the previous build, with no error and no reload", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const session = await openSession(browser, { baseURL: topology.origin });
  const { page, watch } = await session.newPage();
  /** The gifts remote's scripts the page was given (answered, or found current: 304), by path. */
  const giftsScripts: string[] = [];
  page.on('response', (response: Response) => {
    const path = new URL(response.url()).pathname;
    if (response.status() < 400 && path.startsWith('/remotes/gifts/') && path.endsWith('.js')) giftsScripts.push(path);
  });
  const fromA = (file: string) => expect.stringMatching(new RegExp(`^/remotes/gifts/builds/${buildA}/${file}`));
  const pageOfA = expect.arrayContaining([fromA('remoteEntry\\.js'), fromA('__federation_expose_GamePage\\.')]);

  // A visitor on the home page; the gifts remote's entry (the header's link to /game) has run.
  expect(await visit(page, '/')).toBe(200);
  await waitForRenderedPage(page);
  expect(await configuredGifts(page)).toEqual({
    build: buildB,
    fallback: `${topology.origin}/remotes/gifts/builds/${buildA}/mf-manifest.json`,
  });
  await page.waitForFunction(() => typeof (window as { gifts?: unknown }).gifts === 'object', undefined, {
    timeout: 20_000,
  });

  // B's chunks are gone, at the root and in its own copy; its entry and manifest stay.
  const folder = topology.remoteFolder('gifts');
  const deleted = [...deleteChunks(folder), ...deleteChunks(join(folder, 'builds', buildB))];
  expect(deleted).toContainEqual(expect.stringMatching(/^__federation_expose_GamePage\./));

  // The next page: A's entry and page, with no error page and no reload.
  giftsScripts.length = 0;
  await navLink(page, 'Play').click();
  await page.waitForURL(`${topology.origin}/game`);
  await waitForRenderedPage(page);
  await expect(errorPage(page)).toHaveCount(0);
  expect(giftsScripts).toEqual(pageOfA);
  expect(watch.documentLoads()).toBe(1);
  expect(watch.pageErrors).toEqual([]);
  // No bounce back: the host's server still names B, which this tab found broken.
  await nextBuildsAnswer(page, 'gifts', buildB);
  await navLink(page, 'Home').click();
  await page.waitForURL(`${topology.origin}/`);
  await waitForRenderedPage(page);
  expect(watch.documentLoads()).toBe(1);

  // The tab remembers B is broken: a new page loads A at once (the host's server still sends
  // B's preloads, which fail).
  giftsScripts.length = 0;
  expect(await visit(page, '/game')).toBe(200);
  await waitForRenderedPage(page);
  await expect(errorPage(page)).toHaveCount(0);
  expect(giftsScripts).toEqual(pageOfA);
  expect(watch.pageErrors).toEqual([]);

  // Leaving the pages sends their telemetry: the switch and B's failed load, under their build ids.
  await page.goto('about:blank');
  await session.close();
  await expect
    .poll(() => metricLines('giftbox_remote_fallbacks_total', { remote: 'gifts', from: buildB, to: buildA }), {
      timeout: 20_000,
    })
    .toHaveLength(1);
  expect(
    await metricLines('giftbox_remote_loads_total', { remote: 'gifts', build: buildB, outcome: 'failed' }),
  ).not.toEqual([]);
});
