/**
 * Runs every part at once, each as its own process on its own port.
 *   start: builds what is not built yet, then serves the production builds (`npm run serve`:
 *          plain node on each part's compiled server).
 *   dev:   webpack-dev-server with hot reload for every part.
 * Ctrl-C (or SIGTERM) stops them all; if one exits, the others are stopped too. Each part runs
 * in its own process group, so stopping it stops npm and the server beneath it together.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

interface Part {
  name: string;
  /**
   * Files that exist once the part has been built: its server bundle, and its web build's
   * last file. Any one missing (say, a web build from before the servers were bundled) means
   * `npm run build -w <part>`.
   */
  builtMarkers: string[];
}

const ROOT = join(__dirname, '..');
const PARTS: Part[] = [
  { name: 'api', builtMarkers: ['dist/index.js'] },
  { name: 'remote-content', builtMarkers: ['dist/builds/latest.json', 'dist-server/main.js'] },
  { name: 'remote-gifts', builtMarkers: ['dist/builds/latest.json', 'dist-server/main.js'] },
  { name: 'remote-redeem', builtMarkers: ['dist/builds/latest.json', 'dist-server/main.js'] },
  { name: 'host', builtMarkers: ['dist/_app/builds/latest.json', 'dist-server/main.js'] },
];
const COLOURS = [36, 35, 33, 32, 34];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function buildMissing(): void {
  for (const part of PARTS) {
    if (part.builtMarkers.every((marker) => existsSync(join(ROOT, part.name, marker)))) continue;
    console.log(`[run-all] building ${part.name}`);
    const result = spawnSync(npm, ['run', 'build', '-w', part.name], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) {
      console.error(`[run-all] building ${part.name} failed`);
      process.exit(result.status ?? 1);
    }
  }
}

function prefixLines(child: ChildProcess, label: string): void {
  const write = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) stream.write(`${label} ${line}\n`);
  };
  child.stdout?.on('data', write(process.stdout));
  child.stderr?.on('data', write(process.stderr));
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group has already gone
  }
}

/**
 * In development each remote also runs its standalone shell on its own origin, which calls the
 * API directly; let the API accept those origins too (production allows the host's only).
 */
function partEnv(script: 'serve' | 'dev'): NodeJS.ProcessEnv {
  if (script !== 'dev' || process.env.CORS_ORIGINS) return process.env;
  const origins = [
    ['REMOTE_GIFTS_PORT', 3001],
    ['REMOTE_REDEEM_PORT', 3002],
    ['REMOTE_CONTENT_PORT', 3003],
  ].map(([variable, port]) => `http://localhost:${process.env[variable as string] || port}`);
  return { ...process.env, CORS_ORIGINS: origins.join(',') };
}

function runAll(script: 'serve' | 'dev'): void {
  const children: ChildProcess[] = [];
  let stopping = false;
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) signalGroup(child, 'SIGTERM');
    // Past the API's own bound (10 s for in-flight requests, then closing its database).
    const force = setTimeout(() => {
      for (const child of children) signalGroup(child, 'SIGKILL');
      process.exit(code);
    }, 12_000);
    force.unref();
    Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))))).then(
      () => process.exit(code),
      () => process.exit(code),
    );
  };
  PARTS.forEach((part, index) => {
    const label = `\u001b[${COLOURS[index % COLOURS.length]}m[${part.name}]\u001b[0m`;
    const child = spawn(npm, ['run', '--silent', script, '-w', part.name], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: partEnv(script),
      detached: true,
    });
    prefixLines(child, label);
    child.on('exit', (code) => {
      if (!stopping) {
        console.error(`[run-all] ${part.name} exited (${code ?? 'signal'}); stopping the others`);
        stopAll(code || 1);
      }
    });
    children.push(child);
  });
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
  process.on('exit', () => children.forEach((child) => signalGroup(child, 'SIGTERM')));
}

const mode = process.argv[2];
if (mode === 'start') {
  buildMissing();
  runAll('serve');
} else if (mode === 'dev') {
  runAll('dev');
} else {
  console.error('usage: tsx scripts/run-all.ts start|dev');
  process.exit(2);
}
