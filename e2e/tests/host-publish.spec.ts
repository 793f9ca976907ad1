/**
 * The host published behind nginx with `npm run deploy -w host` (decision 41): its server, which
 * reads the folder nginx serves (HOST_STATIC_ROOT), serves a new build of its own code without a
 * restart, keeps its own build when one of other code is published (saying so in /healthz), and
 * takes the rollback back to a build of its code; a server started on a folder with no build of
 * its code refuses to start.
 */
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startProcess } from 'testbed/process';
import { waitForRenderedPage } from '../support/app-page';
import { openSession, type BrowserSession } from '../support/browser';
import { expect, test } from '../support/fixtures';
import { httpGet } from '../support/http';
import { freePort } from '../support/production';
import { sharedTopology } from '../support/shared-topology';
import { deployHost, type Topology } from '../support/topology';
import { ROOT_DIR, TMP_DIR } from '../support/test-env';

const MARK = 'gift-box-e2e-build';

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

let topology: Topology;
let visitor: BrowserSession;

interface HostBuildInfo {
  id: string;
  timestamp: number;
  codeVersion: string;
}

const DIST = join(ROOT_DIR, 'host', 'dist');
const built = (): HostBuildInfo =>
  JSON.parse(readFileSync(join(DIST, '_app/builds/latest.json'), 'utf8')) as HostBuildInfo;

/**
 * Another build of the host made from its dist/: the same files under a new id, its template
 * marked with the id, and the code version given (the dist's own, or another code's).
 */
function anotherBuild(suffix: string, codeVersion: string, later: number): HostBuildInfo & { folder: string } {
  const base = built();
  const info = { id: `${base.id}-${suffix}`, timestamp: base.timestamp + later, codeVersion };
  const folder = join(TMP_DIR, 'host-builds', info.id);
  rmSync(folder, { recursive: true, force: true });
  cpSync(DIST, folder, { recursive: true });
  const template = readFileSync(join(folder, 'index.html'), 'utf8');
  writeFileSync(
    join(folder, 'index.html'),
    template.replace('<head>', `<head><meta name="${MARK}" content="${info.id}">`),
  );
  const meta = JSON.parse(readFileSync(join(folder, `_app/builds/meta/${base.id}.json`), 'utf8')) as object;
  writeFileSync(join(folder, `_app/builds/meta/${info.id}.json`), JSON.stringify({ ...meta, ...info }));
  writeFileSync(join(folder, '_app/builds/latest.json'), JSON.stringify(info));
  return { ...info, folder };
}

interface Health {
  build: string;
  published: { build: string; codeVersion?: string; served: boolean };
}

async function health(): Promise<Health> {
  return JSON.parse((await httpGet(`${topology.origin}/healthz`)).body) as Health;
}

/** The build whose template the page a browser gets through nginx was rendered from. */
async function pageBuild(): Promise<string | null> {
  const { page } = await visitor.newPage();
  try {
    expect((await page.goto('/about'))?.status()).toBe(200);
    await waitForRenderedPage(page);
    return await page.locator(`meta[name="${MARK}"]`).getAttribute('content');
  } finally {
    await page.close();
  }
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  topology = await sharedTopology({ apiCount: 1 });
  visitor = await openSession(browser, { baseURL: topology.origin });
});

test.afterAll(async () => {
  await visitor?.close();
  rmSync(join(TMP_DIR, 'host-builds'), { recursive: true, force: true });
});

test('the host published again behind nginx is served by its running server; one of other code waits for a restart', async () => {
  test.setTimeout(120_000);
  expect(await health()).toMatchObject({ build: built().id, published: { build: built().id, served: true } });

  const same = anotherBuild('same-code', built().codeVersion, 1);
  await deployHost(topology.hostFolder, same.folder);
  await expect.poll(async () => (await health()).build, { timeout: 30_000 }).toBe(same.id);
  expect(await pageBuild()).toBe(same.id);

  const other = anotherBuild('other-code', 'another-code', 2);
  await deployHost(topology.hostFolder, other.folder);
  await expect.poll(async () => (await health()).published.build, { timeout: 30_000 }).toBe(other.id);
  expect(await health()).toMatchObject({
    build: same.id,
    published: { build: other.id, codeVersion: 'another-code', served: false },
  });
  // Every page is still whole: the build of the server's own code, never the other code's template.
  expect(await pageBuild()).toBe(same.id);

  await promisify(execFile)('npm', ['run', 'rollback', '-w', 'host', '--', topology.hostFolder], { cwd: ROOT_DIR });
  await expect
    .poll(async () => (await health()).published, { timeout: 30_000 })
    .toEqual({
      build: same.id,
      codeVersion: same.codeVersion,
      served: true,
    });
});

test('the host’s server refuses to start on a folder that holds no build of its code, naming both', async () => {
  const other = anotherBuild('only-other-code', 'another-code', 3);
  const folder = join(TMP_DIR, 'host-builds', 'published-other-code');
  rmSync(folder, { recursive: true, force: true });
  await deployHost(folder, other.folder);
  const server = startProcess({
    name: 'host server on another code’s folder',
    command: process.execPath,
    args: [join(ROOT_DIR, 'host', 'dist-server', 'main.js')],
    cwd: ROOT_DIR,
    env: {
      PATH: process.env.PATH,
      HOST_STATIC_ROOT: folder,
      HOST_PORT: String(await freePort()),
      LISTEN_HOST: '127.0.0.1',
    },
    output: 'pipe',
    exitWithParent: true,
  });
  const code = await server.exited;
  const stderr = server.tail(20);
  expect(code).toBe(1);
  expect(stderr).toContain(
    `[host] cannot start: build ${other.id}, published in ${folder}, is of code version another-code`,
  );
  expect(stderr).toContain(`this server is of code version ${built().codeVersion}`);
});
