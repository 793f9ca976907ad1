/**
 * A remote is declared once (docs/adding-a-remote.md). In a throwaway copy of the repository,
 * `npm run new-remote` makes a fourth remote, `news`, from the template, and the test adds only
 * its entry to the registry (`shared/src/remotes.ts`), as the script says to. Then the host and
 * the new remote are built (the remote's `exposes` checked against the registry) and served as
 * production serves them: the host routes `/news` to the remote's page, on HTTP and in a browser.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForRenderedPage, layoutName } from '../support/app-page';
import { expect, test } from '../support/fixtures';
import { httpGet, httpGetPage } from '../support/http';
import { freePort, startBundle } from '../support/production';
import {
  killProcesses as killBundles,
  stopProcess as stopBundle,
  waitUntilHealthy,
  type RunningProcess as BundleProcess,
} from 'testbed/process';
import { copyRepository, runCommand, type CommandResult } from '../support/repo-copy';
import { sharedBuild } from '../support/shared-builds';
import { OUTSIDE_TMP_DIR } from '../support/test-env';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const REGISTRY = join('shared', 'src', 'remotes.ts');
const REGISTRY_END = '} as const satisfies Record<string, RemoteSpec>;';

// The new remote and its host are servers of their own, on ports of the worker's block.
test.use({ serverOptions: { only: [] } });

let copy: string;
let scaffold: CommandResult;
const servers: BundleProcess[] = [];
const origins = { host: '', news: '' };

function succeeded(what: string, result: CommandResult): void {
  if (result.exitCode !== 0)
    throw new Error(`${what} failed (exit ${result.exitCode}):\n${result.output.slice(-4000)}`);
}

/** Step 2 of the guide: the entry the script printed, pasted at the end of REMOTES. */
function addRegistryEntry(output: string): void {
  const entry = /^ {2}news: \{\n[\s\S]*?^ {2}\},$/m.exec(output)?.[0];
  if (!entry) throw new Error(`npm run new-remote printed no registry entry:\n${output}`);
  const registry = readFileSync(join(copy, REGISTRY), 'utf8');
  if (!registry.includes(REGISTRY_END)) throw new Error(`${REGISTRY} no longer ends REMOTES with "${REGISTRY_END}"`);
  writeFileSync(join(copy, REGISTRY), registry.replace(REGISTRY_END, `${entry}\n${REGISTRY_END}`));
}

/**
 * The copy with the new remote, scaffolded and built once per run (shared-builds.ts): outside
 * the repository, with what `npm run new-remote` printed beside it.
 */
async function scaffoldAndBuild(folder: string): Promise<void> {
  const started = Date.now();
  copy = join(folder, 'repository');
  mkdirSync(copy);
  copyRepository(copy);
  // --no-install: the copy's node_modules links into the repository's, which npm must not touch.
  const scaffolded = await runCommand(NPM, ['run', '--silent', 'new-remote', '--', 'news', '--no-install'], copy);
  writeFileSync(join(folder, 'new-remote.json'), JSON.stringify(scaffolded));
  succeeded('npm run new-remote', scaffolded);
  addRegistryEntry(scaffolded.output);

  const builds = await Promise.all([
    runCommand(NPM, ['run', 'build', '-w', 'host'], copy),
    runCommand(NPM, ['run', 'build', '-w', 'remote-news'], copy),
  ]);
  succeeded('the build of the host', builds[0] as CommandResult);
  succeeded('the build of remote-news', builds[1] as CommandResult);
  console.log(`[e2e] new remote scaffolded and built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const folder = await sharedBuild('new-remote', scaffoldAndBuild, OUTSIDE_TMP_DIR);
  copy = join(folder, 'repository');
  scaffold = JSON.parse(readFileSync(join(folder, 'new-remote.json'), 'utf8')) as CommandResult;

  const [hostPort, newsPort] = [await freePort(), await freePort()];
  origins.host = `http://127.0.0.1:${hostPort}`;
  origins.news = `http://127.0.0.1:${newsPort}`;
  const env = {
    LISTEN_HOST: '127.0.0.1',
    HOST_PORT: String(hostPort),
    REMOTE_NEWS_PORT: String(newsPort),
    REMOTE_NEWS_URL: `${origins.news}/mf-manifest.json`,
  };
  // The host runs as in development (the other remotes at their default ports, which a
  // production host, with HOST_ORIGIN, refuses); the new remote allows the host's origin.
  servers.push(startBundle('new-remote-host', join(copy, 'host'), 'dist-server/main.js', env));
  servers.push(
    startBundle('new-remote-news', join(copy, 'remote-news'), 'dist-server/main.js', {
      ...env,
      HOST_ORIGIN: origins.host,
    }),
  );
  await Promise.all([
    waitUntilHealthy(servers[0] as BundleProcess, `${origins.host}/healthz`),
    waitUntilHealthy(servers[1] as BundleProcess, `${origins.news}/healthz`),
  ]);
});

test.afterAll(async () => {
  await Promise.allSettled(servers.map((server) => stopBundle(server)));
  killBundles(servers);
});

test('the template makes the remote folder, and the script prints the registry entry to add', () => {
  for (const file of [
    'package.json',
    'webpack.config.ts',
    'server/main.ts',
    'src/index.ts',
    'src/bootstrap.tsx',
    'src/exposed/news-page.tsx',
  ]) {
    expect([file, existsSync(join(copy, 'remote-news', file))]).toEqual([file, true]);
  }
  expect(scaffold.output).toContain("portEnv: 'REMOTE_NEWS_PORT'");
  expect(scaffold.output).toContain("file: './src/exposed/news-page.tsx',");
  expect(scaffold.output).toContain("routes: [{ path: '/news', layout: 'default', title: 'News' }],");
});

test('the new remote passes its own typecheck, lint and tests', async () => {
  // Three whole toolchain runs (tsc, eslint, jest), side by side.
  test.setTimeout(150_000);
  const scripts = ['typecheck', 'lint', 'test'];
  const results = await Promise.all(
    scripts.map((script) => runCommand(NPM, ['run', script, '-w', 'remote-news'], copy)),
  );
  results.forEach((result, index) => succeeded(`npm run ${scripts[index]} -w remote-news`, result));
});

test("the new remote's manifest lists the page the registry names", async () => {
  const res = await httpGet(`${origins.news}/mf-manifest.json`);
  expect(res.status).toBe(200);
  const manifest = JSON.parse(res.body) as { name: string; exposes: { name: string }[] };
  expect(manifest.name).toBe('news');
  expect(manifest.exposes.map((exposed) => exposed.name)).toEqual(['NewsPage']);
});

test("the host's configuration names the new remote beside the others", async () => {
  const config = JSON.parse((await httpGet(`${origins.host}/config.json`)).body) as { remotes: Record<string, string> };
  // Remotes left unset are at their default ports, on the hostname the host was reached at.
  const { hostname } = new URL(origins.host);
  expect(config.remotes).toStrictEqual({
    gifts: `http://${hostname}:3001/mf-manifest.json`,
    redeem: `http://${hostname}:3002/mf-manifest.json`,
    content: `http://${hostname}:3003/mf-manifest.json`,
    news: `${origins.news}/mf-manifest.json`,
  });
});

test('the host answers the new route with its page, and still 404 beside it', async () => {
  const page = await httpGetPage(`${origins.host}/news`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect((await httpGetPage(`${origins.host}/news/more`)).status).toBe(404);
});

test("a browser shows the new remote's page in the layout and with the title the registry names", async ({
  page,
  watch,
}) => {
  await page.goto(`${origins.host}/news`, { waitUntil: 'domcontentloaded' });
  const rendered = await waitForRenderedPage(page);
  expect(rendered).toEqual({ heading: 'News', bodyText: 'The news remote serves this page.' });
  expect(await layoutName(page)).toBe('default');
  await expect(page.title()).resolves.toBe('News · Gift Box');
  // The other remotes are not running here: their links' prefetches fail, which is only logged.
  expect(watch.pageErrors).toEqual([]);
});
