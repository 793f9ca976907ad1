/**
 * @jest-environment node
 *
 * The deploy command as a team runs it: real processes (`tsx deploy/deploy-cli.ts`) on one
 * folder. A build holds a named pipe among its files, so a deploy waits at a known point (it
 * copies the pipe only once the test opens it): two deploys started at once, one refused while
 * the other is under way; a deploy killed with SIGKILL half-way.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { deploy } from './deploy';
import { listFiles, makeBuild, read } from './testing/remote-builds';

const ROOT_DIR = join(__dirname, '..');
let root: string;
let target: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'deploy-processes-'));
  target = join(root, 'srv', 'gifts');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Build bN, with a named pipe `slow.bN.bin` among its files when `held`. */
function build(n: number, held = false): string {
  const dir = makeBuild(join(root, `dist-${n}`), `b${n}`, n * 1000, `text of build ${n}`);
  if (held) {
    execFileSync('mkfifo', [join(dir, `slow.b${n}.bin`)]);
    const metaPath = join(dir, 'builds', 'meta', `b${n}.json`);
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { files: string[] };
    writeFileSync(metaPath, JSON.stringify({ ...meta, files: [...meta.files, `slow.b${n}.bin`].sort() }));
  }
  return dir;
}

interface Run {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

/** `tsx deploy/deploy-cli.ts <target> --from <source>`, as `npm run deploy` runs it (tsx in the node process). */
function startDeploy(source: string): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/deploy-cli.ts', target, '--from', source], {
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

/** Lets a deploy waiting on the build's pipe go on once (its own copy; the root's copy then waits again). */
function feedPipeOnce(pipe: string): Promise<void> {
  const feeder = spawn('sh', ['-c', ': > "$0"', pipe], { stdio: 'ignore' });
  return new Promise((resolve) => feeder.once('exit', () => resolve()));
}

/** Lets a deploy through its pipe every time it reads it, until stopped. */
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
  for (const file of meta.files.filter((name) => name !== 'index.html' && !name.startsWith('slow.'))) {
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
  const feeder = feedPipe(join(root, `dist-${winnerId.slice(1)}`, `slow.${winnerId}.bin`));
  const done = await winner.exit;
  feeder.stop();
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
  const pipe = join(second, 'slow.b2.bin');

  const run = startDeploy(second);
  // Its own copy is let through; at the root it writes the new chunks, then waits on the pipe.
  await feedPipeOnce(pipe);
  await until(() => existsSync(join(target, 'main.b2.js')));
  run.child.kill('SIGKILL');
  expect((await run.exit).signal).toBe('SIGKILL');

  // b1 is still current and whole; the lock of the killed run is still there.
  expectWhole('b1', first);
  expect(JSON.parse(read(join(target, 'builds/latest.json')))).toEqual({ id: 'b1', timestamp: 1000 });
  expect(dotFiles()).toEqual(['.deploy.lock']);

  // The next deploy takes the dead run's lock over and publishes the build whole.
  rmSync(pipe);
  writeFileSync(pipe, 'now a plain file');
  const next = await startDeploy(second).exit;
  expect(next.output).toContain(`deploy: build b2 published to ${target}`);
  expect(next.code).toBe(0);
  expectWhole('b2', second);
  expect(read(join(target, 'slow.b2.bin'))).toBe('now a plain file');
  expect(JSON.parse(read(join(target, 'builds/latest.json')))).toEqual({ id: 'b2', timestamp: 2000, previous: 'b1' });
  expect(dotFiles()).toEqual([]);
}, 60_000);
