/**
 * The production form, away from the repository: a folder holding only what ships (the
 * manifests, the lock and the built folders, no source), production dependencies installed
 * with `npm ci --omit=dev`, and each server started with plain node on free loopback ports of
 * the worker's block (`freePort`). The folder is under the system's temporary folder, so no
 * node_modules of the repository is on the servers' module path. Starting, waiting for and
 * stopping a process is testbed/process's.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REMOTES } from 'shared/remotes';
import { freePortIn } from 'testbed/free-port';
import { startProcess, type RunningProcess } from 'testbed/process';
import { BASE, FIXED_PORTS_OFFSET, FREE_PORTS_OFFSET, LOG_DIR, ROOT_DIR } from './test-env';

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

/** The ports `freePort` hands out: below the fixed ports' block, so a command holding those never meets one. */
export const FREE_PORT_RANGE = { first: BASE + FREE_PORTS_OFFSET, last: BASE + FIXED_PORTS_OFFSET - 1 } as const;
const { first: FIRST_FREE_PORT, last: LAST_FREE_PORT } = FREE_PORT_RANGE;
/** The next port of this worker's run-time block to try. */
let nextFreePort = FIRST_FREE_PORT;

/**
 * A port of this worker's block (test-env.ts) that nothing listens on right now, on the loopback
 * interface. Never one the system hands out (port 0): another worker could be given the same
 * one between this probe and its server's start.
 */
export async function freePort(): Promise<number> {
  const port = await freePortIn(FIRST_FREE_PORT, LAST_FREE_PORT, nextFreePort);
  nextFreePort = port < LAST_FREE_PORT ? port + 1 : FIRST_FREE_PORT;
  return port;
}

/**
 * `node --enable-source-maps <bundle>` under testbed's process guard, in its own process group,
 * so a crash of the test process leaves nothing behind; its output in `logDir` (the worker's
 * logs by default) as `production-<name>.log`. Only PATH, HOME and `env` are passed on. Wait for
 * it, stop it with testbed/process (`waitUntilHealthy`, `stopProcess`).
 */
export function startBundle(
  name: string,
  cwd: string,
  bundle: string,
  env: Record<string, string>,
  logDir = LOG_DIR,
): RunningProcess {
  return startProcess({
    name,
    command: process.execPath,
    args: ['--enable-source-maps', bundle],
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? cwd, ...env },
    output: join(logDir, `production-${name}.log`),
    exitWithParent: true,
  });
}
