/** @jest-environment node */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { developmentHostnames, metricsPortOf, standaloneOrigins } from './run-all';

const ROOT = join(__dirname, '..');
const LONG_LINE = 'x'.repeat(200_000);

/** Small stand-ins for the parts, each a node script. */
const SCRIPTS: Record<string, string> = {
  // Well past a pipe's 64 KiB, says so by creating the file named in its first argument, then
  // ends the line once the test creates the one named in its second: several chunks, with as
  // many of another part's lines between them as the test waits for.
  'long-line.js': `const { existsSync, writeFileSync } = require('node:fs');
process.stdout.write(${JSON.stringify(LONG_LINE)}, () => writeFileSync(process.argv[2], ''));
const finish = setInterval(() => {
  if (!existsSync(process.argv[3])) return;
  clearInterval(finish);
  process.stdout.write('END\\n');
}, 20);
process.on('SIGTERM', () => process.exit(0));
setInterval(() => undefined, 1000);`,
  // A numbered line every 20 ms, to cut into the long one.
  'chatty.js': `let count = 0;
setInterval(() => console.log('chat', ++count), 20);
process.on('SIGTERM', () => process.exit(0));`,
  // Each says its pid once its signal handlers are in place.
  'server.js': `for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { console.log('got', signal); process.exit(0); });
console.log('pid', process.pid);
setInterval(() => undefined, 1000);`,
  'stubborn.js': `process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
console.log('pid', process.pid);
setInterval(() => undefined, 1000);`,
  // Exits 3 once the test creates the file named in its first argument.
  'dies.js': `setInterval(() => require('node:fs').existsSync(process.argv[2]) && process.exit(3), 50);`,
};

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'run-all-test-'));
  for (const [name, text] of Object.entries(SCRIPTS)) writeFileSync(join(folder, name), text);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Runner {
  /** Resolves once `text` has been printed. */
  printed(text: string): Promise<void>;
  /** What has been printed so far. */
  output(): string;
  signal(signal: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; output: string }>;
}

/** `runParts` in a process of its own, as `npm start` runs it, with the stand-ins as parts. */
function run(parts: Record<string, string>, graceMs: number): Runner {
  const commands = Object.entries(parts).map(([name, script]) => ({
    name,
    command: `${process.execPath} ${join(folder, script)}`,
  }));
  const child = spawn(
    process.execPath,
    [
      '--require',
      'tsx/cjs',
      '-e',
      `require('./scripts/run-all').runParts(${JSON.stringify(commands)}, ${graceMs}).then((code) => process.exit(code))`,
    ],
    { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const waiting: Array<{ text: string; resolve: () => void }> = [];
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const wait of waiting.filter((entry) => output.includes(entry.text))) wait.resolve();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return {
    printed: (text) =>
      output.includes(text) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text, resolve })),
    output: () => output,
    signal: (signal) => child.kill(signal),
    exited: new Promise((resolve) => child.once('close', (code) => resolve({ code, output }))),
  };
}

const pidOf = (output: string, part: string) => Number(new RegExp(`\\[${part}\\] pid (\\d+)`).exec(output)?.[1]);

/** Running: a process that has exited but not been reaped yet (a zombie) does not count. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !existsSync(`/proc/${pid}/stat`) || readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
}

it('prints a line that came in several chunks whole, behind one prefix, whatever other parts print meanwhile', async () => {
  const [started, finish] = [join(folder, 'long-started'), join(folder, 'long-finish')];
  const runner = run({ long: `long-line.js ${started} ${finish}`, chatty: 'chatty.js' }, 5000);
  // Once the long line's start is out, four more of the other part's lines, then its end.
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (!existsSync(started)) return;
      clearInterval(check);
      resolve();
    }, 20);
  });
  const chatted = Math.max(
    0,
    ...[...runner.output().matchAll(/\[chatty\] chat (\d+)/g)].map((match) => Number(match[1])),
  );
  await runner.printed(`[chatty] chat ${chatted + 4}\n`);
  writeFileSync(finish, '');
  await runner.printed('END');
  runner.signal('SIGTERM');
  const { code, output } = await runner.exited;

  expect(code).toBe(0);
  const lines = output.split('\n');
  expect(lines.filter((line) => line.includes('xxxxxxxxxx')).map((line) => line.length)).toEqual([
    `[long] ${LONG_LINE}END`.length,
  ]);
  expect(lines).toContain(`[long] ${LONG_LINE}END`);
  expect(lines.filter((line) => line.startsWith('[chatty] chat')).length).toBeGreaterThan(3);
}, 30_000);

it('stops the others with SIGTERM when one part exits, and exits 1', async () => {
  const runner = run({ dies: `dies.js ${join(folder, 'die-now')}`, server: 'server.js' }, 5000);
  await runner.printed('[server] pid');
  writeFileSync(join(folder, 'die-now'), '');
  const { code, output } = await runner.exited;

  expect(code).toBe(1);
  expect(output).toContain('[server] got SIGTERM');
  expect(alive(pidOf(output, 'server'))).toBe(false);
}, 30_000);

it('on Ctrl-C stops every part with SIGTERM, kills one still running after the grace, and exits 0', async () => {
  const runner = run({ server: 'server.js', stubborn: 'stubborn.js' }, 1500);
  await Promise.all([runner.printed('[server] pid'), runner.printed('[stubborn] pid')]);
  const signalledAt = Date.now();
  runner.signal('SIGINT');
  const { code, output } = await runner.exited;

  expect(code).toBe(0);
  // SIGTERM, not SIGINT: npm passes the signal on too, and a server takes a second SIGINT for "exit now".
  expect(output).toContain('[server] got SIGTERM');
  expect(output).toContain('[stubborn] ignoring SIGTERM');
  expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1500);
  expect(alive(pidOf(output, 'stubborn'))).toBe(false);
}, 30_000);

describe("npm start's metrics ports", () => {
  const WORKSPACES = ['host', 'remote-gifts', 'remote-redeem', 'remote-content', 'api'];
  const portsWith = (env: NodeJS.ProcessEnv) =>
    Object.fromEntries(WORKSPACES.map((workspace) => [workspace, metricsPortOf(workspace, env)]));

  it('gives each part a metrics port of its own, as far from 9300 as its port is from the host', () => {
    expect(portsWith({})).toStrictEqual({
      host: '9300',
      'remote-gifts': '9301',
      'remote-redeem': '9302',
      'remote-content': '9303',
      api: '9304',
    });
  });

  it('moves the block to a METRICS_PORT already set; set empty (off) or not a number, leaves it to every part', () => {
    expect(portsWith({ METRICS_PORT: '9400' })).toStrictEqual({
      host: '9400',
      'remote-gifts': '9401',
      'remote-redeem': '9402',
      'remote-content': '9403',
      api: '9404',
    });
    for (const METRICS_PORT of ['', 'x'])
      expect(Object.values(portsWith({ METRICS_PORT }))).toEqual(WORKSPACES.map(() => undefined));
  });
});

describe("npm run dev's standalone shells and the API", () => {
  const lan = (address: string, family: 'IPv4' | 'IPv6') => ({ address, family, internal: false });

  it('opens localhost, 127.0.0.1 and every IPv4 address of the machine, each once', () => {
    const interfaces = {
      lo: [{ ...lan('127.0.0.1', 'IPv4'), internal: true }, lan('::1', 'IPv6')],
      eth0: [lan('192.168.1.20', 'IPv4'), lan('fe80::1', 'IPv6')],
    };
    expect(developmentHostnames(interfaces)).toEqual(['localhost', '127.0.0.1', '192.168.1.20']);
  });

  it("allows each remote's shell at each address, on the port its variable sets", () => {
    const origins = standaloneOrigins({ REMOTE_GIFTS_PORT: '7101' }, ['localhost', '127.0.0.1']);
    expect(origins).toEqual(
      expect.arrayContaining(['http://localhost:7101', 'http://127.0.0.1:7101', 'http://127.0.0.1:3002']),
    );
    expect(origins).not.toContain('http://localhost:3001');
  });
});
