/**
 * The production topology (README "Running in production"): Debian's nginx with deploy/nginx's
 * configuration on one public origin, in front of the host's server, the remotes' deployed
 * folders and two API processes on one PostgreSQL. A visitor's whole journey, with one API
 * process killed on the way; the built files' cache rules and encodings; a remote deployed
 * behind nginx while a visitor is on the site.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Page, Response } from '@playwright/test';
import { layoutName, navLink, waitForRenderedPage } from '../support/app-page';
import { openSession, type BrowserSession } from '../support/browser';
import { expect, test } from '../support/fixtures';
import { httpGet, httpGetPage, httpGetRaw } from '../support/http';
import { accessLogLines, type AccessLogLine } from '../support/nginx-site';
import {
  exposeChunk,
  NEXT_MARK,
  nextContentBuild,
  readLatest,
  removeRedeployFolders,
  type Build,
} from '../support/redeploy';
import { sharedTopology } from '../support/shared-topology';
import { deployRemote, type Topology } from '../support/topology';
import { REMOTE_NAMES, ROOT_DIR } from '../support/test-env';
import { nextBuildsAnswer, versionCheckGate } from '../support/version-check';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const EMAIL = 'winner@example.com';

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

let topology: Topology;
let visitor: BrowserSession;
/** The run's second build of the content remote, with every heading changed. */
let nextContent: Build;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  const [started, built] = await Promise.all([
    // The version check polls every second, so a deploy is noticed within the test.
    sharedTopology({ hostEnv: { BUILD_CHECK_INTERVAL_MS: '1000' } }),
    nextContentBuild(),
  ]);
  topology = started;
  nextContent = built;
  visitor = await openSession(browser, { baseURL: topology.origin });
});

test.afterAll(async () => {
  await visitor?.close();
  removeRedeployFolders();
});

/** Statuses of the API's answers the page received. */
function watchApi(page: Page): { statuses: number[] } {
  const seen = { statuses: [] as number[] };
  page.on('response', (response: Response) => {
    if (new URL(response.url()).pathname.startsWith('/api/')) seen.statuses.push(response.status());
  });
  return seen;
}

function apiAddress(port: number): string {
  return `127.0.0.1:${port}`;
}

test('a visitor plays, opens, redeems and sees the voucher through nginx; an API process killed on the way goes unnoticed', async () => {
  test.setTimeout(90_000);
  const { page, watch } = await visitor.newPage();
  const api = watchApi(page);
  const [first, second] = topology.apis;
  if (!first || !second) throw new Error('two API processes expected');

  expect((await page.goto('/game'))?.status()).toBe(200);
  await page.getByRole('button', { name: 'Box 2' }).click();
  await page.getByRole('heading', { name: 'You won!' }).waitFor();
  await page.getByRole('link', { name: 'Open your gift' }).click();
  await page.waitForURL(/\/gifts\/[A-Za-z0-9_-]{24}$/);
  await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();

  // One process dies as a crash would, between two of the visitor's steps. The access log is
  // split at that moment by time, not by what was written when: nginx writes a request's line
  // after its answer, so a line of a request answered before the crash may come later.
  const answeredBeforeCrash = api.statuses.length;
  const crashAt = Date.now();
  process.kill(-first.pid, 'SIGKILL');
  await first.exited;

  await page.getByRole('button', { name: 'Redeem', exact: true }).click();
  await page.waitForURL(/\/redeem\/[A-Za-z0-9_-]{24}$/);
  await page.getByRole('heading', { name: 'Redeem your gift' }).waitFor();
  await page.getByRole('textbox', { name: /Email address/ }).fill(EMAIL);
  await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
  await page.getByRole('button', { name: 'Redeem my gift' }).click();
  const voucher = page.getByRole('group', { name: 'Voucher code' });
  await voucher.waitFor();
  expect(await voucher.innerText()).toMatch(/[0-9A-Z]{4}(-[0-9A-Z]{4}){6}/);

  await page.reload();
  await page.getByRole('heading', { name: 'Your gift is redeemed' }).waitFor();
  // Every request of the journey succeeded (the version check's polls the reload cancelled are
  // no failure: watchPage tells them apart).
  expect(watch.failedRequests).toEqual([]);

  // Every answer the visitor got was a success, and the voucher was shown: no error anywhere.
  expect(api.statuses.length).toBeGreaterThan(4);
  expect(api.statuses.filter((status) => status >= 400)).toEqual([]);
  expect(watch.problems()).toEqual([]);
  // Before the crash, both processes answered the page's requests: nginx balances over them.
  const isApi = (line: AccessLogLine) => line.path.startsWith('/api/');
  const before = await accessLogLines(
    topology.nginx,
    (line) => isApi(line) && line.endedAt <= crashAt,
    answeredBeforeCrash,
  );
  const answeredBy = new Set(before.flatMap((line) => line.upstreams));
  expect(answeredBy).toEqual(new Set([apiAddress(first.port), apiAddress(second.port)]));
  // After it, the live process answered; a request nginx first sent to the dead one went on to
  // the live one.
  const after = await accessLogLines(
    topology.nginx,
    (line) => isApi(line) && line.startedAt >= crashAt,
    api.statuses.length - answeredBeforeCrash,
  );
  expect(after.length).toBeGreaterThan(0);
  for (const line of after) expect(line.upstreams.at(-1)).toBe(apiAddress(second.port));
  await page.close();
});

/** Every file of a deployed folder, relative to it. */
function filesOf(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesOf(dir, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}

test('built files: a year for content-hashed ones, revalidated otherwise, brotli and gzip made at build time, plain 404s', async () => {
  const content = topology.remoteFolder('content');
  const entry = `${topology.origin}/remotes/content/remoteEntry.js`;
  // The largest chunk the build compressed.
  const chunkName = readdirSync(content)
    .filter((file) => file.endsWith('.js.br'))
    .map((file) => file.slice(0, -'.br'.length))
    .sort((a, b) => readFileSync(join(content, b)).length - readFileSync(join(content, a)).length)[0] as string;
  const chunk = `${topology.origin}/remotes/content/${chunkName}`;
  const plain = await httpGetRaw(chunk, { 'accept-encoding': 'identity' });
  expect(plain.status).toBe(200);
  expect(plain.headers['cache-control']).toBe(IMMUTABLE);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.headers['x-content-type-options']).toBe('nosniff');

  // The compressed forms written by the build are sent as they are, and are the same file.
  const brotli = await httpGetRaw(chunk, { 'accept-encoding': 'gzip, deflate, br' });
  expect(brotli.headers['content-encoding']).toBe('br');
  expect(brotli.headers.vary).toMatch(/Accept-Encoding/i);
  expect(brotli.body.equals(readFileSync(join(content, `${chunkName}.br`)))).toBe(true);
  expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
  const gzip = await httpGetRaw(chunk, { 'accept-encoding': 'gzip' });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);

  // Files that name the current build are revalidated, and still compressed on the way.
  for (const path of ['remoteEntry.js', 'mf-manifest.json', 'builds/latest.json']) {
    const result = await httpGetRaw(`${topology.origin}/remotes/content/${path}`, { 'accept-encoding': 'gzip' });
    expect([path, result.status, result.headers['cache-control']]).toEqual([path, 200, 'no-cache']);
    expect(result.headers.etag).toBeDefined();
  }
  const entryGzip = await httpGetRaw(entry, { 'accept-encoding': 'gzip' });
  expect(entryGzip.headers['content-encoding']).toBe('gzip');
  const latest = readLatest(content);
  const meta = await httpGetRaw(`${topology.origin}/remotes/content/builds/meta/${latest.id}.json`);
  expect(meta.headers['cache-control']).toBe(IMMUTABLE);
  // The host's own files too.
  const hostMain = readdirSync(join(ROOT_DIR, 'host', 'dist')).find((name) => /^main\.[0-9a-f]{8}\.js$/.test(name));
  const main = await httpGetRaw(`${topology.origin}/${hostMain}`, { 'accept-encoding': 'br' });
  expect([main.status, main.headers['cache-control'], main.headers['content-encoding']]).toEqual([
    200,
    IMMUTABLE,
    'br',
  ]);

  // Every compressed file of every deployed remote is its file, compressed.
  for (const remote of REMOTE_NAMES) {
    const dir = topology.remoteFolder(remote);
    const compressed = filesOf(dir).filter((file) => /\.(br|gz)$/.test(file));
    expect(compressed.length).toBeGreaterThan(0);
    for (const file of compressed) {
      const original = readFileSync(join(dir, file.replace(/\.(br|gz)$/, '')));
      const bytes = readFileSync(join(dir, file));
      const decompressed = file.endsWith('.br') ? brotliDecompressSync(bytes) : gunzipSync(bytes);
      expect([file, decompressed.equals(original)]).toEqual([file, true]);
    }
  }

  // A missing chunk is a plain 404, never a page; an unknown page is the host's 404 page.
  const missing = await httpGetRaw(`${topology.origin}/remotes/content/0000.0000000000000000.js`);
  expect(missing.status).toBe(404);
  expect(String(missing.headers['content-type'])).not.toMatch(/html/);
  const unknownPage = await httpGetPage(`${topology.origin}/no-such-page`);
  expect(unknownPage.status).toBe(404);
  expect(unknownPage.body).toContain('<div id="root"');
  // The built template is never sent as it is: the host's server answers for it.
  const template = await httpGetPage(`${topology.origin}/index.html`);
  expect(template.body).not.toContain('<%');
  expect(template.body).toContain('id="gift-box-config"');
});

test('a page comes from the host server with the runtime configuration naming the public origin', async () => {
  const page = await httpGetPage(`${topology.origin}/about`);
  expect(page.status).toBe(200);
  expect(page.headers.get('cache-control')).toBe('private, no-cache');
  expect(page.body).toContain(`"apiBaseUrl":"${topology.origin}"`);
  expect(page.body).toContain(`${topology.origin}/remotes/content/mf-manifest.json`);
});

test("metrics are no path of the public origin; nginx's status is served on its loopback status server only", async () => {
  for (const path of ['/metrics', '/metrics?name[]=up', '/metrics/api', '/stub_status']) {
    for (const get of [httpGet, httpGetPage]) {
      const result = await get(`${topology.origin}${path}`);
      expect([path, result.status, result.body]).toEqual([path, 404, 'Not found\n']);
    }
  }
  // nginx answered them itself: no server behind it was asked.
  const asked = await accessLogLines(topology.nginx, (line) => /^\/(metrics|stub_status)(\/|$)/.test(line.path), 8);
  expect(asked).toHaveLength(8);
  expect(asked.flatMap((line) => line.upstreams)).toEqual([]);
  // What prometheus-nginx-exporter reads.
  const status = await httpGet(topology.nginxStatusUrl);
  expect(status.status).toBe(200);
  expect(status.body).toMatch(/^Active connections: \d+ \nserver accepts handled requests\n \d+ \d+ \d+ \n/);
});

test('the content remote deployed behind nginx mid-session: the old build keeps working, the new one runs from the next load', async () => {
  test.setTimeout(90_000);
  const { page, watch } = await visitor.newPage();
  const folder = topology.remoteFolder('content');
  const old = readLatest(folder);
  const remoteFiles = `${topology.origin}/remotes/content/`;
  const scripts: { url: string; status: number }[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(remoteFiles) && response.url().endsWith('.js'))
      scripts.push({ url: response.url().slice(remoteFiles.length), status: response.status() });
  });
  // The page runs the content remote's current build, as the host's server says; then its
  // version check's polls are held until the old build has drawn one more page.
  const gate = await versionCheckGate(page);
  const baseline = nextBuildsAnswer(page, 'content', old.id);
  expect((await page.goto('/about'))?.status()).toBe(200);
  await waitForRenderedPage(page);
  await baseline;
  await gate.close();
  expect(scripts.map((script) => script.url)).toContain(exposeChunk(folder, 'AboutPage'));
  const oldTermsChunk = exposeChunk(folder, 'TermsPage');

  await deployRemote('content', folder, nextContent.dir);
  expect(readLatest(folder).id).toBe(nextContent.info.id);
  expect(readLatest(folder).id).not.toBe(old.id);

  // The page runs the old build: its next page is drawn by the old build's chunk, which the
  // deploy kept, without a reload.
  await navLink(page, 'Terms').click();
  await page.waitForURL(/\/terms$/);
  await waitForRenderedPage(page);
  expect(scripts.map((script) => script.url)).toContain(oldTermsChunk);
  expect(watch.documentLoads()).toBe(1);

  // Once the version check has seen the new build, the next navigation loads the page anew,
  // and the new build's chunk draws it, with the new text.
  const seen = nextBuildsAnswer(page, 'content', nextContent.info.id);
  gate.open();
  await seen;
  await navLink(page, 'About').click();
  await page.waitForURL(/\/about$/);
  await page.waitForFunction((mark) => document.querySelector('main h1')?.textContent?.includes(mark), NEXT_MARK, {
    timeout: 20_000,
  });
  await waitForRenderedPage(page);
  expect(watch.documentLoads()).toBe(2);
  expect(scripts.map((script) => script.url)).toContain(exposeChunk(nextContent.dir, 'AboutPage'));
  expect(scripts.filter((script) => script.status !== 200)).toEqual([]);
  expect(await layoutName(page)).toBe('default');
  expect(watch.problems()).toEqual([]);
  expect(watch.documents.map((load) => load.status)).toEqual([200, 200]);
  await page.close();
});
