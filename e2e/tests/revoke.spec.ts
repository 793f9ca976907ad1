/**
 * Revoking a build of the gifts remote on the production topology (nginx in front of the host's
 * server and the deployed remotes), with the remote's own deploy command (`--revoke`): a tab
 * running the revoked canary runs the stable build from its next navigation, with one full load
 * and none of the revoked build's scripts; the revoked build is no longer pinned by a preview
 * signed for it, nor a page's fallback, nor made current by a rollback. Build A is remote-gifts'
 * own build; B and C copies of it under other ids (build-variants.ts's `good` variant): B deployed
 * over A (A previous), C a canary for every visitor.
 */
import { join } from 'node:path';
import type { Request } from '@playwright/test';
import { navLink, visit, waitForRenderedPage } from '../support/app-page';
import { variantBuild } from '../support/build-variants';
import { openSession } from '../support/browser';
import { previewCookie, runRemoteCommand } from '../support/canary';
import { expect, test } from '../support/fixtures';
import { readLatest, removeRedeployFolders, tempFolder } from '../support/redeploy';
import { ROOT_DIR } from '../support/test-env';
import { sharedTopology } from '../support/shared-topology';
import { type Topology } from '../support/topology';
import { nextBuildsAnswer, versionCheckGate } from '../support/version-check';

const GIFTS_DIST = join(ROOT_DIR, 'remote-gifts', 'dist');
const PREVIEW_KEY = 'revoke-spec-gifts-preview-key-for-tests-only';
const COHORT = '7';

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

let topology: Topology;
let folder: string;
const buildA = readLatest(GIFTS_DIST).id;
const buildB = `${buildA}-b`;
const buildC = `${buildA}-c`;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  topology = await sharedTopology({
    apiCount: 1,
    hostEnv: { BUILD_CHECK_INTERVAL_MS: '1000', REMOTE_GIFTS_PREVIEW_KEY: PREVIEW_KEY },
  });
  folder = topology.remoteFolder('gifts');
  const dirB = variantBuild(GIFTS_DIST, tempFolder('revoke-b'), buildB, 'good');
  await runRemoteCommand('deploy', 'gifts', folder, ['--from', dirB]);
  const dirC = variantBuild(GIFTS_DIST, tempFolder('revoke-c'), buildC, 'good');
  await runRemoteCommand('deploy', 'gifts', folder, ['--stage', '--from', dirC]);
  // Staged, C is what a preview signed for it pins.
  await expect.poll(() => servedGifts(pinnedToC()), { timeout: 20_000 }).toMatchObject({ build: buildC });
  await runRemoteCommand('canary', 'gifts', folder, ['start', buildC, '--percent', '100']);
  expect(readLatest(folder)).toMatchObject({ id: buildB, previous: buildA, canary: { id: buildC } });
});

/** The cookies of a visitor of COHORT whose browser holds a preview signed for C. */
function pinnedToC(): string {
  return `gb_cohort=${COHORT}; gb_preview=${previewCookie(topology.origin, PREVIEW_KEY, 'gifts', buildC).value}`;
}

test.afterAll(async () => {
  removeRedeployFolders();
});

/** The gifts build and fallback the /game page's inline configuration names for these cookies (no page loaded). */
async function servedGifts(cookie: string): Promise<{ build?: string; fallback?: string }> {
  const answer = await fetch(`${topology.origin}/game`, { headers: { accept: 'text/html', cookie } });
  const html = await answer.text();
  return {
    build: /"remoteBuilds":\{[^}]*"gifts":"([^"]+)"/.exec(html)?.[1],
    fallback: /"remoteFallbacks":\{[^}]*"gifts":"([^"]+)"/.exec(html)?.[1],
  };
}

test('a revoked build is never loaded, pinned, fallen back to or rolled back to; a tab holding it moves to the stable build', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const cohort = `gb_cohort=${COHORT}`;
  const pinned = pinnedToC();
  await expect.poll(() => servedGifts(cohort), { timeout: 20_000 }).toMatchObject({ build: buildC });

  const session = await openSession(browser, { baseURL: topology.origin });
  await session.context.addCookies([{ name: 'gb_cohort', value: COHORT, url: topology.origin }]);
  const { page, watch } = await session.newPage();
  const gate = await versionCheckGate(page);
  expect(await visit(page, '/game')).toBe(200);
  await waitForRenderedPage(page);
  await nextBuildsAnswer(page, 'gifts', buildC);

  // Revoked while the tab runs it: the canary is aborted. The checks are held meanwhile, so the
  // test waits for the answer naming B before it comes (a stale page asks no more).
  await gate.close();
  const revoked = await runRemoteCommand('deploy', 'gifts', folder, ['--revoke', buildC]);
  expect(revoked).toContain(`build ${buildC} is revoked`);
  expect(revoked).toContain('aborted');
  const toStable = nextBuildsAnswer(page, 'gifts', buildB);
  gate.open();
  await toStable;
  const scriptsOfC: string[] = [];
  page.on('request', (request: Request) => {
    if (new URL(request.url()).pathname.startsWith(`/remotes/gifts/builds/${buildC}/`)) scriptsOfC.push(request.url());
  });
  await navLink(page, 'Home').click();
  await page.waitForURL(`${topology.origin}/`);
  await waitForRenderedPage(page);
  await navLink(page, 'Play').click();
  await page.waitForURL(`${topology.origin}/game`);
  await waitForRenderedPage(page);
  expect(watch.documentLoads()).toBe(2);
  expect(scriptsOfC).toEqual([]);
  expect(watch.pageErrors).toEqual([]);
  await session.close();

  // A preview signed for it pins nothing; the stable build's fallback is A until A is revoked too.
  expect(await servedGifts(pinned)).toEqual({
    build: buildB,
    fallback: `${topology.origin}/remotes/gifts/builds/${buildA}/mf-manifest.json`,
  });
  await runRemoteCommand('deploy', 'gifts', folder, ['--revoke', buildA]);
  await expect.poll(() => servedGifts(pinned), { timeout: 20_000 }).toEqual({ build: buildB });

  // Neither is made current again: named, refused; listed as revoked.
  await expect(runRemoteCommand('rollback', 'gifts', folder, [buildC])).rejects.toThrow(`build ${buildC} is revoked`);
  const list = await runRemoteCommand('rollback', 'gifts', folder, ['--list']);
  for (const id of [buildA, buildC]) expect(list).toMatch(new RegExp(`${id} +built \\S+ +revoked`));
  expect(readLatest(folder)).toMatchObject({ id: buildB, revoked: [buildA, buildC] });
});
