/** Real child processes: a tiny node HTTP server whose behaviour its environment chooses. */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort, isPortInUse } from './free-port';
import {
  startProcess,
  startServer,
  stopProcess,
  waitUntilHealthy,
  type ProcessSpec,
  type RunningProcess,
} from './process';

jest.setTimeout(30_000);

const SERVER = `
const http = require('node:http');
const { spawn } = require('node:child_process');
const mode = process.env.MODE ?? 'serve';
console.log('fixture ' + mode + ' started, pid ' + process.pid);
if (mode === 'exit') {
  console.error('boom: the configuration is bad');
  process.exit(3);
}
if (mode === 'children') {
  const forever = ['-e', 'setInterval(() => {}, 1000)'];
  const same = spawn(process.execPath, forever, { stdio: 'ignore' });
  const own = spawn(process.execPath, forever, { stdio: 'ignore', detached: true });
  console.log('children ' + same.pid + ' ' + own.pid);
}
if (mode === 'stubborn') process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
const status = mode === 'unhealthy' ? 503 : 200;
setTimeout(() => {
  http
    .createServer((request, response) => response.writeHead(status).end(mode))
    .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
}, Number(process.env.DELAY_MS ?? 0));
`;

let dir: string;
let script: string;
const started: RunningProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'testbed-process-'));
  script = join(dir, 'server.js');
  writeFileSync(script, SERVER);
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => stopProcess(server, { hard: true })));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Gone, or a zombie nobody reaped yet (a container's init may not). */
function gone(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync('/proc')) {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
  try {
    return readFileSync(stat, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}

async function fixture(
  mode: string,
  extra: Partial<ProcessSpec> = {},
  env: Record<string, string> = {},
): Promise<{ spec: ProcessSpec; url: string; log: string }> {
  const port = await freePort();
  const log = join(dir, `${mode}-${port}.log`);
  const spec: ProcessSpec = {
    name: `the ${mode} fixture`,
    command: process.execPath,
    args: [script],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', MODE: mode, PORT: String(port), ...env },
    output: log,
    ...extra,
  };
  return { spec, url: `http://127.0.0.1:${port}/health`, log };
}

function track(server: RunningProcess): RunningProcess {
  started.push(server);
  return server;
}

/** The processes go within a few seconds (a signal takes a moment to end a process). */
async function expectGone(pids: number[]): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (pids.some((pid) => !gone(pid)) && Date.now() < deadline) await delay(20);
  expect(pids.filter((pid) => !gone(pid))).toEqual([]);
}

function pidsIn(log: string, pattern: RegExp): number[] {
  return (pattern.exec(readFileSync(log, 'utf8')) ?? []).slice(1).map(Number);
}

test('waits until the health URL answers 200', async () => {
  const { spec, url, log } = await fixture('serve', {}, { DELAY_MS: '700' });
  const server = track(await startServer({ ...spec, health: url }));
  expect(readFileSync(log, 'utf8')).toContain('listening');
  expect(server.hasExited()).toBe(false);
  expect(await (await fetch(url)).text()).toBe('serve');
});

test('a port accepting connections is health too', async () => {
  const { spec, url } = await fixture('serve', {}, { DELAY_MS: '300' });
  const port = Number(new URL(url).port);
  track(await startServer({ ...spec, health: { port, host: '127.0.0.1' } }));
  expect((await fetch(url)).status).toBe(200);
});

test('a process that exits first fails at once, with its log since this start', async () => {
  const { spec, url, log } = await fixture('exit');
  writeFileSync(log, 'an earlier run of it\n');
  const began = Date.now();
  const starting = startServer({
    ...spec,
    output: { file: log, append: true, header: '=== second start\n' },
    health: url,
    readyTimeoutMs: 20_000,
  });
  await expect(starting).rejects.toThrow(
    new RegExp(
      `^the exit fixture exited \\(code 3\\) before serving ${url}; ${log} ends with:\n` +
        '=== second start\nfixture exit started, pid \\d+\nboom: the configuration is bad$',
    ),
  );
  expect(Date.now() - began).toBeLessThan(10_000);
  expect(readFileSync(log, 'utf8')).toMatch(/^an earlier run of it\n=== second start\n/);
});

test('piped output: the error names its tail, and the caller reads the pipes too', async () => {
  const { spec, url } = await fixture('exit', { output: 'pipe' });
  const server = startProcess(spec);
  let read = '';
  server.child.stderr?.on('data', (chunk: Buffer) => (read += chunk.toString()));
  await expect(waitUntilHealthy(server, url)).rejects.toThrow(
    /^the exit fixture exited \(code 3\) before serving .*; its output ends with:\n[^]*boom: the configuration is bad$/,
  );
  expect(read).toContain('boom: the configuration is bad');
  expect(server.logFile).toBeUndefined();
});

test('a command that cannot run fails with the reason', async () => {
  const { spec, url } = await fixture('serve', { command: join(dir, 'no-such-program') });
  await expect(startServer({ ...spec, health: url })).rejects.toThrow(
    /^the serve fixture exited \(code 127\) before serving [^]*cannot run .*no-such-program.*ENOENT/,
  );
});

test('a process that never gets healthy fails by the deadline, naming it, and is stopped', async () => {
  const { spec, url, log } = await fixture('unhealthy');
  const starting = startServer({ ...spec, health: url, readyTimeoutMs: 1_500 });
  await expect(starting).rejects.toThrow(
    new RegExp(
      `^the unhealthy fixture did not serve ${url} within 1500 ms; ${log} ends with:\nfixture unhealthy started`,
    ),
  );
  const [pid] = pidsIn(log, /started, pid (\d+)/);
  expect(gone(pid as number)).toBe(true);
  expect(await isPortInUse(Number(new URL(url).port), '127.0.0.1')).toBe(false);
});

test('stop ends the process and its children, those in a group of their own too', async () => {
  const { spec, url, log } = await fixture('children');
  const server = await startServer({ ...spec, health: url });
  const [same, own] = pidsIn(log, /children (\d+) (\d+)/);
  expect([same, own].every((pid) => pid !== undefined && !gone(pid))).toBe(true);
  expect(await stopProcess(server)).toBe(128 + 15);
  for (const pid of [server.pid, same, own] as number[]) expect([pid, gone(pid)]).toEqual([pid, true]);
});

test('a process that ignores SIGTERM is killed once the bound has passed', async () => {
  const { spec, url } = await fixture('stubborn', { stopTimeoutMs: 500 });
  const server = await startServer({ ...spec, health: url });
  const began = Date.now();
  expect(await stopProcess(server)).toBe(128 + 9);
  expect(Date.now() - began).toBeGreaterThanOrEqual(450);
  expect(gone(server.pid)).toBe(true);
});

test('a process that outlives SIGKILL (stuck in the kernel) is an error naming it, not a wait without end', async () => {
  const stuck: RunningProcess = {
    name: 'the stuck fixture',
    pid: -1,
    child: undefined as unknown as ChildProcess,
    logFile: undefined,
    ownGroup: false,
    stopTimeoutMs: 100,
    exited: new Promise<number>(() => undefined),
    hasExited: () => false,
    tail: () => '',
  };
  await expect(stopProcess(stuck)).rejects.toThrow('the stuck fixture (pid -1) did not exit within 5000 ms of SIGKILL');
});

test('exitWithParent: the guard takes the group down when its starter goes away', async () => {
  const { spec, url, log } = await fixture('children');
  const server = track(await startServer({ ...spec, health: url, exitWithParent: true }));
  const [fixturePid] = pidsIn(log, /started, pid (\d+)/);
  const [same, own] = pidsIn(log, /children (\d+) (\d+)/);
  expect(fixturePid).not.toBe(server.pid);
  // As if this process had been killed outright: the guard's IPC channel closes.
  server.child.disconnect();
  expect(await server.exited).toBe(128 + 15);
  expect(readFileSync(log, 'utf8')).toContain('[process-guard] the test process went away: stopping');
  // The server and the child in its group; the detached one left the group, as a daemon would.
  await expectGone([fixturePid, same] as number[]);
  if (own !== undefined) process.kill(own, 'SIGKILL');
});

test('the guard passes the exit code and output through', async () => {
  const { spec, url, log } = await fixture('exit', { exitWithParent: true });
  await expect(startServer({ ...spec, health: url })).rejects.toThrow(/exited \(code 3\)/);
  expect(readFileSync(log, 'utf8')).toContain('boom: the configuration is bad');
});

test('a guarded process stops on SIGTERM to its group, with the exit code of its command', async () => {
  const { spec, url } = await fixture('serve', { exitWithParent: true });
  const server = await startServer({ ...spec, health: url });
  expect(await stopProcess(server)).toBe(128 + 15);
  expect(gone(server.pid)).toBe(true);
  expect(await isPortInUse(Number(new URL(url).port), '127.0.0.1')).toBe(false);
});

test('a command with nothing else to do waits, with untilExited, for the guarded process it stops', async () => {
  // As npm run staging at its end: every timer of its own cleared, one guarded process still going.
  const script = [
    `const { startProcess, untilExited } = require(${JSON.stringify(join(__dirname, 'process.ts'))});`,
    `const brief = startProcess({ name: 'brief', command: process.execPath, args: ['-e', 'setTimeout(() => process.exit(7), 300)'], output: 'pipe', exitWithParent: true });`,
    `untilExited(brief, 10_000).then((code) => console.log('waited for exit code ' + code));`,
  ].join('\n');
  const command = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  expect(command.stdout).toContain('waited for exit code 7');
});
