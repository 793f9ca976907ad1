/**
 * The production form, away from the repository: a folder holding only what ships (the
 * manifests, the lock and the built folders, no source), production dependencies installed
 * with `npm ci --omit=dev`, and each server started with plain node on free loopback ports.
 * The folder is under the system's temporary folder, so no node_modules of the repository
 * is on the servers' module path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants } from 'node:os';
import { join } from 'node:path';
import { REMOTES } from 'shared/remotes';
import { answersOk, delay } from './net';
import { BASE, FREE_PORTS_OFFSET, LOG_DIR, PORTS_PER_WORKER, ROOT_DIR } from './test-env';

/** What an operator ships besides the manifests: the built folders and the files the API reads. */
export const BUILT_FOLDERS = [
  'api/dist',
  'api/migrations',
  'api/catalogue.json',
  'host/dist',
  'host/dist-server',
  ...Object.values(REMOTES).flatMap(({ packageDir }) => [`${packageDir}/dist`, `${packageDir}/dist-server`]),
];

/** The root package.json's workspace folders, its patterns (`remote-*`) matched as npm does. */
export function workspaceFolders(): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { workspaces: string[] };
  return manifest.workspaces.flatMap((pattern) => {
    if (!pattern.includes('*')) return [pattern];
    const matcher = new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}$`,
    );
    return readdirSync(ROOT_DIR)
      .filter((name) => matcher.test(name) && existsSync(join(ROOT_DIR, name, 'package.json')))
      .sort();
  });
}

/** Copies the root manifest and lock, every workspace's manifest (npm ci wants them all) and the built folders. */
export function copyShippedFiles(target: string): void {
  const files = [
    'package.json',
    'package-lock.json',
    ...workspaceFolders().map((workspace) => `${workspace}/package.json`),
  ];
  for (const path of [...files, ...BUILT_FOLDERS])
    cpSync(join(ROOT_DIR, path), join(target, path), { recursive: true });
}

export interface InstallResult {
  exitCode: number | null;
  /** npm's output, stdout and stderr together. */
  output: string;
  durationMs: number;
}

/** `npm ci --omit=dev` in `dir`, from npm's cache where it can. */
export async function installProductionDependencies(dir: string): Promise<InstallResult> {
  const started = Date.now();
  const args = ['ci', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline'];
  let output = '';
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', resolve);
  });
  return { exitCode, output, durationMs: Date.now() - started };
}

/** The next port of this worker's run-time block to try. */
let nextFreePort = BASE + FREE_PORTS_OFFSET;

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A port of this worker's block (test-env.ts) that nothing listens on right now, on the loopback
 * interface. Never one the system hands out (port 0): another worker could be given the same
 * one between this probe and its server's start.
 */
export async function freePort(): Promise<number> {
  const end = BASE + PORTS_PER_WORKER;
  for (let tries = 0; tries < PORTS_PER_WORKER - FREE_PORTS_OFFSET; tries += 1) {
    const port = nextFreePort;
    nextFreePort = port + 1 < end ? port + 1 : BASE + FREE_PORTS_OFFSET;
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port left in ${BASE + FREE_PORTS_OFFSET}-${end - 1}`);
}

const GUARD = join(__dirname, 'process-guard.cjs');
const READY_TIMEOUT_MS = 45_000;
const STOP_TIMEOUT_MS = 8_000;

export interface BundleProcess {
  name: string;
  pid: number;
  logFile: string;
  /** The exit code (128 + n for a signal). */
  exited: Promise<number | null>;
}

/**
 * `node --enable-source-maps <bundle>` under process-guard.cjs in its own process group, so a
 * crash of the test process leaves nothing behind. Only PATH, HOME and `env` are passed on.
 */
export function startBundle(name: string, cwd: string, bundle: string, env: Record<string, string>): BundleProcess {
  return startBundleCommand(name, cwd, process.execPath, ['--enable-source-maps', bundle], env);
}

/** Any program, as `startBundle` runs node (nginx, for one). */
export function startBundleCommand(
  name: string,
  cwd: string,
  program: string,
  args: readonly string[],
  env: Record<string, string> = {},
): BundleProcess {
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = join(LOG_DIR, `production-${name}.log`);
  const fd = openSync(logFile, 'w');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [GUARD, program, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? cwd, ...env },
      detached: true,
      stdio: ['ignore', fd, fd, 'ipc'],
    });
  } finally {
    closeSync(fd);
  }
  if (child.pid === undefined) throw new Error(`${name} could not be spawned`);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : null)));
  });
  child.unref();
  child.channel?.unref();
  return { name, pid: child.pid, logFile, exited };
}

function logOf(server: BundleProcess): string {
  try {
    return readFileSync(server.logFile, 'utf8').trimEnd().split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Waits until `url` answers 200; fails with the server's log if it exits or takes too long. */
export async function waitUntilHealthy(server: BundleProcess, url: string): Promise<void> {
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answersOk(url))) {
    if (exitCode !== undefined)
      throw new Error(`${server.name} exited (${exitCode}) before ${url} answered:\n${logOf(server)}`);
    if (Date.now() > deadline)
      throw new Error(`${server.name}: ${url} did not answer 200 within ${READY_TIMEOUT_MS} ms:\n${logOf(server)}`);
    await delay(100);
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM to the server's group; gives its exit code, or SIGKILLs it after a while and fails. */
export async function stopBundle(server: BundleProcess): Promise<number | null> {
  signalGroup(server.pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS)));
  const outcome = await Promise.race([server.exited, timeout]);
  clearTimeout(timer);
  // Whatever happened, nothing of the group may stay behind.
  signalGroup(server.pid, 'SIGKILL');
  if (outcome === 'timeout')
    throw new Error(`${server.name} did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM:\n${logOf(server)}`);
  return outcome;
}

/** Last resort for afterAll: SIGKILL every group still there. */
export function killBundles(servers: readonly BundleProcess[]): void {
  for (const server of servers) signalGroup(server.pid, 'SIGKILL');
}
