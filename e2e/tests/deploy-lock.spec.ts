/**
 * One change at a time per deployment, on the production topology (nginx in front of the
 * remotes' deployed folders): two `npm run deploy` of the gifts remote at once into its folder.
 * One is refused, naming the other; the other finishes; the folder is whole, and a visitor then
 * plays /game through nginx.
 *
 * Each deploy publishes a copy of the gifts build with one more file, a named pipe: the deploy
 * that holds the folder waits on it (it copies the pipe only once the test opens it), so the
 * other is certain to meet a deploy under way, whichever starts first.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { openSession } from '../support/browser';
import { expect, test } from '../support/fixtures';
import { sharedTopology } from '../support/shared-topology';
import { type Topology } from '../support/topology';
import { ROOT_DIR, TMP_DIR } from '../support/test-env';

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

const GIFTS_DIST = join(ROOT_DIR, 'remote-gifts', 'dist');
const COPIES = join(TMP_DIR, 'deploy-lock');

let topology: Topology;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  topology = await sharedTopology({ apiCount: 1 });
});

test.afterAll(async () => {
  rmSync(COPIES, { recursive: true, force: true });
});

interface BuildMeta {
  id: string;
  files: string[];
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** A copy of the gifts build in `COPIES/<name>` with a named pipe, `held.bin`, among its files. */
function heldCopy(name: string): { dir: string; pipe: string } {
  const dir = join(COPIES, name);
  cpSync(GIFTS_DIST, dir, { recursive: true });
  const pipe = join(dir, 'held.bin');
  execFileSync('mkfifo', [pipe]);
  const { id } = readJson<{ id: string }>(join(dir, 'builds', 'latest.json'));
  const metaPath = join(dir, 'builds', 'meta', `${id}.json`);
  const meta = readJson<BuildMeta>(metaPath);
  writeFileSync(metaPath, JSON.stringify({ ...meta, files: [...meta.files, 'held.bin'] }));
  return { dir, pipe };
}

interface Deploy {
  name: string;
  pipe: string;
  done: Promise<{ code: number | null; output: string }>;
}

/** `npm run deploy -w remote-gifts -- <folder> --from <copy>`, as the remote's team types it. */
function startDeploy(name: string, folder: string): Deploy {
  const { dir, pipe } = heldCopy(name);
  const child = spawn('npm', ['run', 'deploy', '-w', 'remote-gifts', '--', folder, '--from', dir], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, output })),
  );
  return { name, pipe, done };
}

/** Lets a deploy through its pipe each time it reads it, until stopped. */
function feed(pipe: string): () => void {
  const feeder = spawn('sh', ['-c', 'while :; do : > "$0"; done', pipe], { stdio: 'ignore' });
  return () => feeder.kill('SIGKILL');
}

test('Two deploys at once to one folder: one is refused, the folder stays whole', async ({ browser }) => {
  test.setTimeout(120_000);
  const folder = topology.remoteFolder('gifts');
  mkdirSync(COPIES, { recursive: true });

  const deploys = [startDeploy('first', folder), startDeploy('second', folder)];
  // The refused one ends at once; the other waits on its pipe.
  const refused = await Promise.race(deploys.map((run) => run.done.then((result) => ({ ...result, run }))));
  const holder = deploys.find((run) => run !== refused.run) as Deploy;
  expect(refused.code).toBe(1);
  const named = new RegExp(
    `deploy: ${folder} is being changed by another run: deploy \\(process (\\d+) on ${hostname()}, since [^)]+\\)\\. ` +
      'One change at a time: wait for it to finish and run this again.',
  ).exec(refused.output);
  expect(named, refused.output).not.toBeNull();
  // The process it names is the other deploy, still under way.
  const cmdline = readFileSync(`/proc/${named?.[1]}/cmdline`, 'utf8');
  expect(cmdline).toContain('deploy/cli.ts');
  expect(cmdline).toContain(join(COPIES, holder.name));

  const stop = feed(holder.pipe);
  const finished = await holder.done;
  stop();
  expect(finished.code, finished.output).toBe(0);
  expect(finished.output).toContain(`published to ${folder}`);

  // The folder is whole: latest.json names the build, every file of it is there, nothing half-written.
  const latest = readJson<{ id: string }>(join(folder, 'builds', 'latest.json'));
  const meta = readJson<BuildMeta>(join(folder, 'builds', 'meta', `${latest.id}.json`));
  const missing = meta.files
    .filter((file) => file !== 'index.html')
    .filter((file) => !existsSync(join(folder, file)) || !existsSync(join(folder, 'builds', latest.id, file)));
  expect(missing).toEqual([]);
  expect(existsSync(join(folder, '.deploy.lock'))).toBe(false);

  // A visitor plays through nginx.
  const visitor = await openSession(browser, { baseURL: topology.origin });
  try {
    const { page, watch } = await visitor.newPage();
    expect((await page.goto('/game'))?.status()).toBe(200);
    await page.getByRole('button', { name: 'Box 2' }).click();
    await page.getByRole('heading', { name: 'You won!' }).waitFor();
    expect(watch.failedRequests).toEqual([]);
    expect(watch.problems()).toEqual([]);
  } finally {
    await visitor.close();
  }
});
