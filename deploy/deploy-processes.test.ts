/**
 * @jest-environment node
 *
 * The deploy command as a team runs it: real processes (`tsx deploy/cli.ts deploy`) on one
 * folder. A build holds named pipes among its files, so a deploy waits at a known point (it
 * copies a pipe only once the test opens it): two deploys started at once, one refused while
 * the other is under way; a deploy killed with SIGKILL half-way.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { deploy } from './deploy';
import { listFiles, makeBuild, read } from './testing/fake-remote-build';

const ROOT_DIR = join(__dirname, '..');
let root: string;
let target: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'deploy-processes-'));
  target = join(root, 'srv', 'gifts');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/**
 * Build bN. With `held`, two named pipes among its files: `held.bN.bin`, copied before
 * `main.bN.js`, and `slow.bN.bin`, copied after it.
 */
function build(n: number, held = false): string {
  const dir = makeBuild(join(root, `dist-${n}`), `b${n}`, n * 1000, `text of build ${n}`);
  if (held) {
    const pipes = [`held.b${n}.bin`, `slow.b${n}.bin`];
    for (const pipe of pipes) execFileSync('mkfifo', [join(dir, pipe)]);
    const metaPath = join(dir, 'builds', 'meta', `b${n}.json`);
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { files: string[] };
    writeFileSync(metaPath, JSON.stringify({ ...meta, files: [...meta.files, ...pipes].sort() }));
  }
  return dir;
}

interface Run {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

/** `tsx deploy/cli.ts deploy <target> --from <source>`, as `npm run deploy` runs it (tsx in the node process). */
function startDeploy(source: string): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/cli.ts', 'deploy', target, '--from', source], {
    cwd: ROOT_DIR,
    env: { ...process.env, INIT_CWD: root },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, output })),
  );
  return { child, exit };
}

/**
 * Lets a deploy waiting on `pipe` go on once: resolves once the feeder has closed its end, so
 * the deploy's next opening of that pipe waits for the next feed.
 */
function feedPipeOnce(pipe: string): Promise<void> {
  const feeder = spawn('sh', ['-c', ': > "$0"', pipe], { stdio: 'ignore' });
  return new Promise((resolve) => feeder.once('exit', () => resolve()));
}

/** Lets a deploy through a pipe every time it reads it, until stopped. */
function feedPipe(pipe: string): { stop(): void } {
  const feeder = spawn('sh', ['-c', 'while :; do : > "$0"; done', pipe], { stdio: 'ignore' });
  return { stop: () => feeder.kill('SIGKILL') };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await delay(20);
}

/** Every file of build `id` (its meta file's list) is in the folder and in its own copy, as built. */
function expectWhole(id: string, dist: string): void {
  const meta = JSON.parse(read(join(target, 'builds/meta', `${id}.json`))) as { files: string[] };
  for (const file of meta.files.filter((name) => name !== 'index.html' && !name.endsWith('.bin'))) {
    const built = file === 'builds/latest.json' ? undefined : read(join(dist, file));
    if (built !== undefined) {
      expect([file, read(join(target, file))]).toEqual([file, built]);
      expect([file, read(join(target, 'builds', id, file))]).toEqual([file, built]);
    }
  }
  expect(JSON.parse(read(join(target, 'builds/latest.json')))).toMatchObject({ id });
}

/** The files a run may leave only while it runs: its lock, its temporary files. */
const dotFiles = () => listFiles(target).filter((file) => file.split('/').some((part) => part.startsWith('.')));

it('two deploys at once to one folder: one is refused naming the other, and the folder is whole after', async () => {
  await deploy({ source: build(1), target });
  const sources = [build(2, true), build(3, true)];

  const runs = sources.map((source) => startDeploy(source));
  const first = await Promise.race(runs.map((run, index) => run.exit.then((result) => ({ index, ...result }))));
  const refused = first;
  const winner = runs[1 - refused.index] as Run;
  const winnerId = `b${refused.index === 0 ? 3 : 2}`;

  expect(refused.code).toBe(1);
  expect(refused.output).toContain(
    `deploy: ${target} is being changed by another run: deploy (process ${winner.child.pid} on ${hostname()}, since `,
  );
  // The run under way goes on, and finishes.
  const feeders = ['held', 'slow'].map((name) =>
    feedPipe(join(root, `dist-${winnerId.slice(1)}`, `${name}.${winnerId}.bin`)),
  );
  const done = await winner.exit;
  for (const feeder of feeders) feeder.stop();
  expect(done.output).toContain(`deploy: build ${winnerId} published to ${target}`);
  expect(done.code).toBe(0);

  expectWhole(winnerId, join(root, `dist-${winnerId.slice(1)}`));
  expect(JSON.parse(read(join(target, 'builds/latest.json')))).toEqual({
    id: winnerId,
    timestamp: Number(winnerId.slice(1)) * 1000,
    previous: 'b1',
  });
  expect(dotFiles()).toEqual([]);
}, 60_000);

it('a deploy killed half-way leaves the previous build current and whole, and the next deploy succeeds', async () => {
  const first = build(1);
  await deploy({ source: first, target });
  const second = build(2, true);
  const [held, slow] = [join(second, 'held.b2.bin'), join(second, 'slow.b2.bin')];

  const run = startDeploy(second);
  // Its own copy is let through both pipes; at the root it writes the new chunks up to the slow
  // pipe, and waits there. Each pipe is fed again only once its last feeder has closed it and the
  // deploy has gone past the other pipe, so no feed can let the deploy through the root's slow
  // pipe, however late a feeder closes on a busy machine.
  await feedPipeOnce(held);
  await feedPipeOnce(slow);
  await feedPipeOnce(held);
  await until(() => existsSync(join(target, 'main.b2.js')));
  run.child.kill('SIGKILL');
  expect((await run.exit).signal).toBe('SIGKILL');

  // b1 is still current and whole; the lock of the killed run is still there.
  expectWhole('b1', first);
  expect(JSON.parse(read(join(target, 'builds/latest.json')))).toEqual({ id: 'b1', timestamp: 1000 });
  expect(dotFiles()).toEqual(['.deploy.lock']);

  // The next deploy takes the dead run's lock over and publishes the build whole.
  for (const pipe of [held, slow]) {
    rmSync(pipe);
    writeFileSync(pipe, `${pipe} is now a plain file`);
  }
  const next = await startDeploy(second).exit;
  expect(next.output).toContain(`deploy: build b2 published to ${target}`);
  expect(next.code).toBe(0);
  expectWhole('b2', second);
  expect(read(join(target, 'slow.b2.bin'))).toBe(`${slow} is now a plain file`);
  expect(JSON.parse(read(join(target, 'builds/latest.json')))).toEqual({ id: 'b2', timestamp: 2000, previous: 'b1' });
  expect(dotFiles()).toEqual([]);
}, 60_000);
