/**
 * A new remote joins a running site alone (docs/adding-a-remote.md). The production topology
 * (nginx, two host's servers, two API processes, the registry's remotes deployed) runs the
 * repository's own build, made before the remote existed. In a throwaway copy of the repository,
 * `npm run new-remote -- news` makes the remote, `npm run build -w remote-news` builds it alone
 * and its deploy command deploys it alone into the folder nginx serves at `/remotes/news/`. The
 * running API and host's servers are then given its manifest's URL and the path it may claim
 * (ADDED_REMOTES, REMOTE_NEWS_URL, REMOTE_NEWS_PATHS) and restarted in turn; nothing else is
 * built. Its page is served, rendered with its scripts' digests, counted, and its next deploy
 * seen by an open page; removed again, its path is the 404 page.
 */
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { layoutName, errorPage, visit, waitForRenderedPage } from '../support/app-page';
import { digestOf } from '../support/build-variants';
import { openSession, type BrowserSession } from '../support/browser';
import { expect, test } from '../support/fixtures';
import { httpGetPage } from '../support/http';
import {
  buildRemote,
  builtWorkspaces,
  deployFromCopy,
  distOf,
  npmInCopy,
  publishedRoutes,
  scaffoldRemote,
  type PublishedRoute,
  type RemoteCopy,
} from '../support/new-remote';
import { apiMetricLines, restartInTurn } from '../support/reconfigure';
import { exposeChunk, readLatest } from '../support/redeploy';
import { sharedTopology } from '../support/shared-topology';
import { type Topology } from '../support/topology';
import { BASE, OUTSIDE_TMP_DIR, REMOTE_NAMES, ROOT_DIR } from '../support/test-env';
import { nextBuildsAnswer, versionCheckGate } from '../support/version-check';

const NAME = 'news';
const PATH = '/news';
const COPY_DIR = join(OUTSIDE_TMP_DIR, `new-remote-${BASE}`);
/** The builds the running site was started from: the new remote's build must change none. */
const RUNNING_BUILDS = [
  'host/dist/index.html',
  'host/dist-server/main.js',
  'api/dist/index.js',
  ...REMOTE_NAMES.map((remote) => `remote-${remote}/dist/mf-manifest.json`),
];
/** Records every script and script preload the page adds, with the integrity it carries. */
const SCRIPT_RECORDER = `(() => {
  const seen = (window.__scriptsAdded = []);
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        if (node instanceof HTMLScriptElement && node.src) seen.push({ url: node.src, integrity: node.integrity });
        if (node instanceof HTMLLinkElement && node.rel === 'preload' && node.as === 'script')
          seen.push({ url: node.href, integrity: node.integrity });
      }
  }).observe(document, { childList: true, subtree: true });
})();`;

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });
// One journey: each step starts from where the one before left the site.
test.describe.configure({ mode: 'serial' });

let topology: Topology;
let copy: RemoteCopy;
let session: BrowserSession;
/** When the new remote's build ended (performance.now()). */
let builtAt = 0;

/**
 * What an integrator adds to the API's and the host's servers' environment. Deployed beside the
 * other remotes under `/remotes/`, it is at their origin, which REMOTE_ORIGINS (unset: the
 * origins of the remotes' URLs) allows already.
 */
function newsVariables(): Record<string, string> {
  return {
    ADDED_REMOTES: NAME,
    REMOTE_NEWS_URL: `${topology.origin}/remotes/${NAME}/mf-manifest.json`,
    REMOTE_NEWS_PATHS: PATH,
  };
}

function newsRoute(): PublishedRoute {
  const [route, ...others] = publishedRoutes(topology.remoteFolder(NAME));
  if (!route || others.length > 0) throw new Error(`${NAME} should publish one route, not ${others.length + 1}`);
  return route;
}

function modifiedTimes(): Record<string, number> {
  return Object.fromEntries(RUNNING_BUILDS.map((file) => [file, statSync(join(ROOT_DIR, file)).mtimeMs]));
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  rmSync(COPY_DIR, { recursive: true, force: true });
  mkdirSync(COPY_DIR, { recursive: true });
  // The version check polls every second, so a deploy is noticed within the test.
  [topology, copy] = await Promise.all([
    sharedTopology({ hostCount: 2, hostEnv: { BUILD_CHECK_INTERVAL_MS: '1000' } }),
    scaffoldRemote(COPY_DIR, NAME),
  ]);
  session = await openSession(browser, { baseURL: topology.origin });
});

test.afterAll(async () => {
  await session?.close();
  rmSync(COPY_DIR, { recursive: true, force: true });
});

test('the remote npm run new-remote makes builds alone; the running site knows nothing of it', async () => {
  test.setTimeout(240_000);
  const before = modifiedTimes();
  const seconds = await buildRemote(copy);
  builtAt = performance.now();
  console.log(`[new-remote] remote-news built alone in ${seconds.toFixed(1)} s`);
  expect(builtWorkspaces(copy)).toEqual([copy.workspace]);
  expect(publishedRoutes(distOf(copy)).map((route) => route.path)).toEqual([PATH]);
  // The site runs builds made before the remote existed, and no other build was made.
  expect(modifiedTimes()).toEqual(before);
  for (const file of ['host/dist-server/main.js', 'api/dist/index.js'])
    expect([file, readFileSync(join(ROOT_DIR, file), 'utf8').includes('NewsPage')]).toEqual([file, false]);
  expect((await httpGetPage(`${topology.origin}${PATH}`)).status).toBe(404);
});

test('deployed alone and given to the running API and host servers, restarted in turn: /news is its page', async () => {
  test.setTimeout(120_000);
  await deployFromCopy(copy, topology.remoteFolder(NAME));
  await restartInTurn(topology, newsVariables());
  // An added remote's routes come with its manifest, which each host's server reads once it runs.
  for (const { port } of topology.hosts)
    await expect
      .poll(async () => (await httpGetPage(`http://127.0.0.1:${port}${PATH}`)).status, { timeout: 20_000 })
      .toBe(200);
  const page = await httpGetPage(`${topology.origin}${PATH}`);
  expect(page.status).toBe(200);
  const servedAfter = (performance.now() - builtAt) / 1000;
  console.log(
    `[new-remote] seconds from "new remote built" to "its page served in production": ${servedAfter.toFixed(1)}`,
  );
  console.log(`[new-remote] parts rebuilt: ${builtWorkspaces(copy).join(', ')}`);

  const route = newsRoute();
  const config = /<script[^>]* id="gift-box-config"[^>]*>([^<]*)<\/script>/.exec(page.body)?.[1] ?? '{}';
  const { remotes, routes } = JSON.parse(config) as { remotes?: Record<string, string>; routes?: unknown[] };
  expect(remotes?.[NAME]).toBe(newsVariables().REMOTE_NEWS_URL);
  expect(routes).toContainEqual(expect.objectContaining({ path: PATH, remote: NAME, module: route.module }));
  if (route.prerendered) expect(page.body).toContain(`<div id="root" data-prerendered="${route.module}">`);
  else expect(page.body).not.toContain('data-prerendered');
});

test("a browser renders its page with each of its scripts' digests; its telemetry is counted under its route", async () => {
  test.setTimeout(90_000);
  const route = newsRoute();
  const folder = topology.remoteFolder(NAME);
  const files = `${topology.origin}/remotes/${NAME}/`;
  const { page, watch } = await session.newPage();
  await page.addInitScript({ content: SCRIPT_RECORDER });
  const loaded = new Set<string>();
  page.on('response', (response) => {
    if (response.url().startsWith(files) && response.url().endsWith('.js'))
      loaded.add(response.url().slice(files.length));
  });
  expect(await visit(page, PATH)).toBe(200);
  // The template's page, drawn by the remote's own code.
  const rendered = await waitForRenderedPage(page);
  expect(rendered).toEqual({ heading: route.title, bodyText: `The ${NAME} remote serves this page.` });
  expect(await layoutName(page)).toBe(route.layout);
  await expect(page).toHaveTitle(`${route.title} · Gift Box`);
  // Its text was in the page's HTML already when the route says it is prerendered.
  if (route.prerendered) expect((await httpGetPage(`${topology.origin}${PATH}`)).body).toContain(rendered.bodyText);

  expect([...loaded]).toEqual(expect.arrayContaining(['remoteEntry.js', exposeChunk(folder, route.module)]));
  const added = await page.evaluate(
    () => (window as unknown as { __scriptsAdded: { url: string; integrity: string }[] }).__scriptsAdded,
  );
  for (const file of loaded) {
    const digest = digestOf(readFileSync(join(folder, file)));
    const given = added.filter(({ url }) => url === `${files}${file}`).map(({ integrity }) => integrity);
    expect([file, given.length > 0 && given.every((integrity) => integrity === digest)]).toEqual([file, true]);
  }
  expect(watch.problems()).toEqual([]);
  expect(watch.failedRequests).toEqual([]);

  // Leaving the page sends its telemetry: its vitals under its route and its remote.
  await page.goto('about:blank');
  await expect.poll(() => apiMetricLines(topology, { route: PATH, remote: NAME }), { timeout: 20_000 }).not.toEqual([]);
  expect(await apiMetricLines(topology, { remote: NAME, outcome: 'ok' })).not.toEqual([]);
  await page.close();
});

test('its next deploy is noticed by a page open on it', async () => {
  test.setTimeout(240_000);
  const folder = topology.remoteFolder(NAME);
  const first = readLatest(folder).id;
  const { page } = await session.newPage();
  const gate = await versionCheckGate(page);
  const current = nextBuildsAnswer(page, NAME, first);
  expect(await visit(page, PATH)).toBe(200);
  await waitForRenderedPage(page);
  await current;

  const seconds = await buildRemote(copy);
  console.log(`[new-remote] remote-news built again in ${seconds.toFixed(1)} s`);
  // Held while it deploys, so the test waits for the answer before it can come.
  await gate.close();
  await deployFromCopy(copy, folder);
  const next = readLatest(folder).id;
  expect(next).not.toBe(first);
  const noticed = nextBuildsAnswer(page, NAME, next);
  gate.open();
  await noticed;
  await page.close();
});

test('removed (its variables unset, every process restarted in turn): /news is the 404 page, the rest as it was', async () => {
  test.setTimeout(120_000);
  await restartInTurn(topology, {});
  for (const { port } of topology.hosts)
    expect((await httpGetPage(`http://127.0.0.1:${port}${PATH}`)).status).toBe(404);
  const { page, watch } = await session.newPage();
  expect(await visit(page, PATH)).toBe(404);
  await expect(errorPage(page).getByText('404', { exact: true })).toBeVisible();
  expect(await visit(page, '/')).toBe(200);
  await waitForRenderedPage(page);
  expect(watch.problems({ allowDocumentErrorStatus: true })).toEqual([]);
  await page.close();
});

test('the remote npm run new-remote makes passes its own typecheck, lint and tests', async () => {
  // Three whole toolchain runs (tsc, eslint, jest), side by side.
  test.setTimeout(180_000);
  await Promise.all(
    ['typecheck', 'lint', 'test'].map((script) => npmInCopy(copy, ['run', script, '-w', copy.workspace])),
  );
});
