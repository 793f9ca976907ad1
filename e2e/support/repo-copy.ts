/**
 * A throwaway copy of the repository for a test that changes its source (a new remote): every
 * file as it is in the working tree but dependencies, builds, logs and data, beside a
 * node_modules of links into the repository's. The workspaces' own links (`shared`, `host`, …)
 * point at the copy's folders instead, so the copy builds from its own source.
 */
import { spawn } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, symlinkSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { ROOT_DIR } from './test-env';

/** Folder names never copied: installed, built or written at run time (`.work`: the bench's copies and caches). */
const NOT_COPIED = new Set(['node_modules', 'dist', 'dist-server', '.git', '.e2e-tmp', 'coverage', '.data', '.work']);

function isWorkspaceLink(path: string): boolean {
  if (!lstatSync(path).isSymbolicLink()) return false;
  const target = relative(ROOT_DIR, realpathSync(path));
  return !target.startsWith('..') && !target.split('/').includes('node_modules');
}

export function copyRepository(target: string): void {
  cpSync(ROOT_DIR, target, { recursive: true, filter: (source) => !NOT_COPIED.has(basename(source)) });
  const modules = join(ROOT_DIR, 'node_modules');
  mkdirSync(join(target, 'node_modules'));
  for (const name of readdirSync(modules)) {
    const source = join(modules, name);
    // A workspace's link is relative (`../shared`): the same link in the copy names the copy's folder.
    symlinkSync(isWorkspaceLink(source) ? readlinkSync(source) : source, join(target, 'node_modules', name));
  }
}

export interface CommandResult {
  exitCode: number | null;
  /** stdout and stderr together. */
  output: string;
}

/** Runs `command args…` in `cwd` and collects its output; never rejects for a failing command. */
export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ exitCode, output }));
  });
}
