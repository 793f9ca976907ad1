/**
 * The release run with no person in the loop, on the production topology (nginx, the host's
 * server, the deployed remotes, an API process on PostgreSQL) with Debian's Prometheus scraping
 * the API's metrics listener every second. A team releases a build of the content remote whose
 * pages throw for every visitor but not in the gate's browser (support/build-variants.ts: a fault
 * only real traffic meets): `npm run release -w remote-content` stages it, the gate passes it,
 * the canary starts at 50 %, and Prometheus soon shows the canary's loads failing where the
 * stable build's succeed. The run aborts it by itself within two analysis intervals, saying why
 * with the figures; every visitor (a few browser contexts browsing in a loop, cohorts chosen so
 * that some get the canary) then runs the stable build, and a gift a visitor won before the
 * release is still theirs; `rollback --list` shows the abort with the verdict's reasons. The test
 * prints how long the bad canary reached visitors: from its start to the first stable page of the
 * last of its visitors. A second team starts such a build by hand (`npm run canary … start`), which
 * says nobody judges it, and its visitors meet it; a release run given its id adopts it where it
 * is, without the gate, judges it on what its visitors reported since its start, and aborts it.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext } from '@playwright/test';
import { startPrometheus, type RunningPrometheus } from 'testbed/prometheus';
import { type CommandResult, npmCommand, variantBuild } from '../support/build-variants';
import { waitForRenderedPage } from '../support/app-page';
import { openSession, type BrowserSession } from '../support/browser';
import { expect, test } from '../support/fixtures';
import { CONTENT_DIST, readLatest } from '../support/redeploy';
import { GATE_BROWSER_ENV, GATE_LCP_BUDGET_ARGS, LOG_DIR, TMP_DIR } from '../support/test-env';
import { sharedTopology } from '../support/shared-topology';
import { type Topology } from '../support/topology';

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

const KEY = 'release-spec-preview-key-for-tests-only-0123456789';
const CONFIG_ELEMENT_ID = 'gift-box-config';
const COHORT_COOKIE = 'gb_cohort';
/** Each analysis waits this long: short, so the test stays lean. */
const INTERVAL_S = 12;
/** Visitors whose cohort gets the canary at 50 %, and visitors whose cohort keeps the stable build. */
const CANARY_VISITORS = 3;
const STABLE_VISITORS = 1;
const PAGES = ['/about', '/', '/terms'];
/** After the run, how long a visitor browses before not being on the stable build fails the test. */
const STABLE_WITHIN_MS = 30_000;

let topology: Topology;
let prometheus: RunningPrometheus;
const sessions: BrowserSession[] = [];

test.beforeAll(async () => {
  test.setTimeout(240_000);
  topology = await sharedTopology({
    apiCount: 1,
    hostEnv: { REMOTE_CONTENT_PREVIEW_KEY: KEY },
    // Every visitor of these tests is one address (127.0.0.1), browsing without pause: the
    // per-address budget of a real client would refuse most of their pages' telemetry.
    apiEnv: { TELEMETRY_BATCHES_PER_IP_PER_MINUTE: '100000' },
  });
  prometheus = await startPrometheus({ jobs: [{ job: 'api', targets: topology.apis.map((api) => api.metrics) }] });
  // Every target scraped before a visitor comes: a series a batch creates is then counted whole.
  await prometheus.waitForTargetsUp(30_000);
});

test.afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  await prometheus?.stop();
});

/** FNV-1a, 32 bits, as shared/deployment's canaryBucket hashes a cohort (browser tests import no source). */
function bucket(cohort: number, remote: string, canaryId: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${cohort}:${remote}:${canaryId}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash >>> 0) % 100;
}

/** Cohorts whose bucket for this canary is under 50 (`canary`) or not. */
function cohorts(canaryId: string, canary: boolean, count: number): number[] {
  const found: number[] = [];
  for (let cohort = 0; found.length < count; cohort += 1) {
    if (bucket(cohort, 'content', canaryId) < 50 === canary) found.push(cohort);
  }
  return found;
}

/** A page a visitor was shown: when it was loaded, and the content build its configuration names. */
interface Shown {
  at: number;
  build: string | undefined;
}

async function contentBuildOf(context: BrowserContext, path: string): Promise<Shown> {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(path);
  const at = Date.now();
  // The page settles: the app has taken it over, its remote loaded or, after its retries, failed
  // and the server's text kept. Its telemetry, the load's outcome included, goes as it is left; a
  // page left while the loader waits to retry (no request on the way, so "network idle") sends none.
  await waitForRenderedPage(page);
  const text = await page.locator(`#${CONFIG_ELEMENT_ID}`).textContent();
  const config = JSON.parse(text ?? '{}') as { remoteBuilds?: Record<string, string> };
  return { at, build: config.remoteBuilds?.content };
}

/** A visitor browsing the content pages until `until()` says stop; gives every page they were shown. */
async function browse(context: BrowserContext, until: (shown: Shown[]) => boolean): Promise<Shown[]> {
  const shown: Shown[] = [];
  for (let index = 0; !until(shown); index += 1)
    shown.push(await contentBuildOf(context, PAGES[index % PAGES.length] ?? '/'));
  return shown;
}

const COMMANDS_LOG = join(LOG_DIR, 'release-spec-commands.log');

/** Visitors whose cohorts get the canary `canaryId` at 50 % (CANARY_VISITORS of them, first), then visitors who keep stable. */
async function visitorsOf(browser: Browser, canaryId: string): Promise<BrowserContext[]> {
  const visitors: BrowserContext[] = [];
  for (const cohort of [...cohorts(canaryId, true, CANARY_VISITORS), ...cohorts(canaryId, false, STABLE_VISITORS)]) {
    const session = await openSession(browser, { baseURL: topology.origin });
    sessions.push(session);
    await session.context.addCookies([{ name: COHORT_COOKIE, value: String(cohort), url: topology.origin }]);
    visitors.push(session.context);
  }
  return visitors;
}

/** `npm run release` of the content remote into `folder`, on this topology, with `build` (`--from` or `--build`). */
function releaseArgs(folder: string, build: readonly string[]): string[] {
  return [
    'run',
    'release',
    '-w',
    'remote-content',
    '--',
    folder,
    ...build,
    '--host',
    topology.origin,
    '--prometheus',
    prometheus.url,
    '--steps',
    '50,100',
    '--interval',
    `${INTERVAL_S}s`,
    '--min-sample',
    '5',
    // Every visitor of this test is one client to the API: they all come from 127.0.0.1.
    '--min-clients',
    '1',
    '--max-waits',
    '2',
    '--out',
    join(TMP_DIR, 'release-builds', 'gate'),
    ...GATE_LCP_BUDGET_ARGS,
  ];
}

/** What `rollback --list` says of the aborted canary `id`, after "aborted canary ". */
async function abortOnRecord(folder: string, id: string): Promise<string | undefined> {
  const list = await npmCommand(['run', 'rollback', '-w', 'remote-content', '--', folder, '--list'], {}, COMMANDS_LOG);
  return new RegExp(`^ {2}${id} +built \\S+ +aborted canary (.*)$`, 'm').exec(list.output)?.[1];
}

/** A visitor who plays the game and wins a gift: the gift page's path. */
async function winAGift(context: BrowserContext): Promise<string> {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/game');
  await page.getByRole('button', { name: 'Box 2' }).click();
  await page.getByRole('heading', { name: 'You won!' }).waitFor();
  await page.getByRole('link', { name: 'Open your gift' }).click();
  await page.waitForURL(/\/gifts\/[A-Za-z0-9_-]{24}$/);
  await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
  return new URL(page.url()).pathname;
}

test('a canary whose pages throw for its visitors is aborted by the release run within two analyses; every visitor then runs stable and keeps their gift', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const folder = topology.remoteFolder('content');
  const stable = readLatest(folder).id;
  const canaryId = `release-bad-${Date.now().toString(36)}`;
  const dir = variantBuild(CONTENT_DIST, join(TMP_DIR, 'release-builds', 'bad'), canaryId, 'throws-for-visitors');

  const visitors = await visitorsOf(browser, canaryId);
  const winner = visitors[0];
  if (!winner) throw new Error('no visitor');
  const giftPath = await winAGift(winner);

  // The team's release, while the visitors browse.
  let canaryStartedAt: number | undefined;
  let finishedAt: number | undefined;
  const release = npmCommand(
    releaseArgs(folder, ['--from', dir]),
    { PREVIEW_KEY: KEY, ...GATE_BROWSER_ENV },
    COMMANDS_LOG,
    (line) => {
      if (line.includes(`release: canary ${canaryId} started at 50 %`)) canaryStartedAt ??= Date.now();
    },
  ).finally(() => {
    finishedAt = Date.now();
  });
  // Each visitor browses until the run has ended and their page runs the stable build again.
  const browsing = visitors.map((context) =>
    browse(
      context,
      (shown) =>
        finishedAt !== undefined &&
        shown.length > 0 &&
        // A visitor still off stable this long after the run is a failure the checks below name.
        (shown.at(-1)?.build === stable || Date.now() - finishedAt > STABLE_WITHIN_MS),
    ),
  );
  const { code, output } = await release;
  const pages = await Promise.all(browsing);

  expect(output).toContain(`release: gate pass exposes`);
  expect(output).toMatch(new RegExp(`release: canary ${canaryId} started at 50 %`));
  const analyses = output.split('\n').filter((line) => /^release: step \d\/\d \(\d+ %\)/.test(line));
  expect(analyses.length, output).toBeGreaterThanOrEqual(1);
  expect(analyses.length, output).toBeLessThanOrEqual(2);
  expect(analyses.at(-1)).toMatch(/: failing: (load-failure|error-page) ratio /);
  expect(output).toMatch(/^ {2}canary release-bad-\S+: \d+ loads from \d+ clients, \d+ failed/m);
  expect(output).toMatch(/^release: the abort is (NOT )?corroborated/m);
  expect(output).toContain(
    `release: canary ${canaryId} aborted: new pages get build ${stable} once the host's server has read the ` +
      `deployment (within its REMOTE_REFRESH_MS, 5 s by default), and a page already open on ${canaryId} switches to ` +
      `${stable} at its first navigation after that read`,
  );
  expect(code, output).toBe(1);
  expect(readLatest(folder).id).toBe(stable);
  // The abort is on record, with the verdict's reasons, where the team looks for its builds.
  expect(await abortOnRecord(folder, canaryId)).toMatch(
    /^\(\S+, at 50 %, by npm run release\): the release run judged it failing: /,
  );

  // The canary's visitors met it, and every visitor ends on the stable build.
  const canaryPages = pages.slice(0, CANARY_VISITORS);
  for (const shown of canaryPages) expect(shown.map((page) => page.build)).toContain(canaryId);
  for (const shown of pages) expect(shown.at(-1)?.build).toBe(stable);

  // How long the bad canary reached visitors: from its start to the first stable page of each of
  // its visitors after their last canary page; the longest of them.
  const backOnStable = canaryPages.map((shown) => {
    const last = shown.map((page) => page.build).lastIndexOf(canaryId);
    return shown.slice(last + 1).find((page) => page.build === stable)?.at ?? Number.NaN;
  });
  const reachedMs = Math.max(...backOnStable) - (canaryStartedAt ?? Number.NaN);
  const served = /the canary was served for ([\d.]+) s/.exec(output)?.[1];
  console.log(
    `[release] the bad canary reached visitors for ${(reachedMs / 1000).toFixed(1)} s ` +
      `(served ${served} s by the release run, ${analyses.length} analysis of ${INTERVAL_S} s)`,
  );
  expect(Number.isFinite(reachedMs)).toBe(true);

  // A gift won before the release is still the winner's.
  const page = winner.pages()[0] ?? (await winner.newPage());
  expect((await page.goto(giftPath))?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: /^Your gift(:|$)/ })).toBeVisible();
});

test('a canary started by hand runs unjudged until a release run adopts it where it is and aborts it, its pages throwing', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const folder = topology.remoteFolder('content');
  const stable = readLatest(folder).id;
  const canaryId = `release-hand-${Date.now().toString(36)}`;
  const dir = variantBuild(CONTENT_DIST, join(TMP_DIR, 'release-builds', 'hand'), canaryId, 'throws-for-visitors');
  const visitors = await visitorsOf(browser, canaryId);

  // The team starts it by hand: the command says nobody judges it.
  const started = await npmCommand(
    ['run', 'canary', '-w', 'remote-content', '--', folder, 'start', '--from', dir, '--percent', '50'],
    {},
    COMMANDS_LOG,
  );
  expect(started.code, started.output).toBe(0);
  expect(started.output).toContain(`canary: nobody judges build ${canaryId} yet`);

  // Its visitors meet it while nobody judges it; then the team runs the release with its id.
  const run: { released?: CommandResult } = {};
  const metCanary = new Set<BrowserContext>();
  const browsing = visitors.map((context) =>
    browse(context, (shown) => {
      if (shown.some((page) => page.build === canaryId)) metCanary.add(context);
      // Once the run is over: back on stable, or the canary left running (the test then fails below).
      const { released } = run;
      return released !== undefined && (shown.at(-1)?.build === stable || released.code !== 1);
    }),
  );
  await expect.poll(() => metCanary.size, { timeout: 60_000 }).toBe(CANARY_VISITORS);
  run.released = await npmCommand(
    releaseArgs(folder, ['--build', canaryId]),
    { PREVIEW_KEY: KEY, ...GATE_BROWSER_ENV },
    COMMANDS_LOG,
  );
  const { code, output } = run.released;
  const pages = await Promise.all(browsing);

  // Taken on where it was, without staging or the gate, and judged on what its visitors reported
  // since its start: failing, at once or after its first interval at 50 %.
  expect(output).toMatch(
    new RegExp(`^release: canary ${canaryId} already runs at 50 % \\(since \\S+, stable ${stable}\\)`, 'm'),
  );
  expect(output).not.toContain('release: gate');
  expect(output).not.toContain('staged build');
  expect(output).toMatch(
    /^release: (as taken on, [\d.]+ s after its start|step 1\/2 \(50 %\), [\d.]+ s in): failing: /m,
  );
  expect(code, output).toBe(1);
  expect(readLatest(folder).id).toBe(stable);
  expect(await abortOnRecord(folder, canaryId)).toMatch(/by npm run release\): the release run judged it failing: /);
  for (const shown of pages) expect(shown.at(-1)?.build).toBe(stable);
  const served = /the canary was served for ([\d.]+) s/.exec(output)?.[1];
  console.log(
    `[release] the canary started by hand was served for ${served} s, adopted and aborted by the release run`,
  );
});
