/**
 * A remote made as a remote team makes one (docs/adding-a-remote.md): `npm run new-remote --
 * <name>` in a throwaway copy of the repository (repo-copy.ts), then built and deployed alone
 * with its own workspace's commands there. Nothing of the repository the suite runs is touched.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyRepository, runCommand, type CommandResult } from './repo-copy';

export interface RemoteCopy {
  /** The copy of the repository. */
  dir: string;
  /** The remote's name: `news`. */
  name: string;
  /** Its workspace, `remote-<name>`. */
  workspace: string;
}

/** A route the remote's build publishes in its manifest (shared/published-routes' shape). */
export interface PublishedRoute {
  module: string;
  path: string;
  layout: string;
  title: string;
  prerendered?: boolean;
}

function succeeded(what: string, result: CommandResult): string {
  if (result.exitCode !== 0)
    throw new Error(`${what} failed (exit ${result.exitCode}):\n${result.output.slice(-4000)}`);
  return result.output;
}

/** `npm <args>` in the copy; its output, or an error with its end. */
export async function npmInCopy(copy: RemoteCopy, args: readonly string[]): Promise<string> {
  return succeeded(`npm ${args.join(' ')}`, await runCommand('npm', args, copy.dir));
}

/** A copy of the repository in `dir` (empty or absent), with remote `name` made by `npm run new-remote`. */
export async function scaffoldRemote(dir: string, name: string): Promise<RemoteCopy> {
  copyRepository(dir);
  const copy = { dir, name, workspace: `remote-${name}` };
  // --no-install: the copy's node_modules links into the repository's, which npm must not touch.
  await npmInCopy(copy, ['run', '--silent', 'new-remote', '--', name, '--no-install']);
  return copy;
}

/** `npm run build -w remote-<name>` in the copy; how long it took, in seconds. */
export async function buildRemote(copy: RemoteCopy): Promise<number> {
  const started = performance.now();
  await npmInCopy(copy, ['run', 'build', '-w', copy.workspace]);
  return (performance.now() - started) / 1000;
}

/** `npm run deploy -w remote-<name> -- <target>` in the copy: its latest build, deployed alone. */
export function deployFromCopy(copy: RemoteCopy, target: string): Promise<string> {
  return npmInCopy(copy, ['run', 'deploy', '-w', copy.workspace, '--', target]);
}

/** The remote's built folder in the copy. */
export function distOf(copy: RemoteCopy): string {
  return join(copy.dir, copy.workspace, 'dist');
}

/** The workspaces of the copy that hold a build (`dist`): the copy starts with none. */
export function builtWorkspaces(copy: RemoteCopy): string[] {
  return readdirSync(copy.dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(copy.dir, entry.name, 'package.json')))
    .filter((entry) => existsSync(join(copy.dir, entry.name, 'dist')))
    .map((entry) => entry.name)
    .sort();
}

/** The routes a built or deployed folder's `mf-manifest.json` publishes, with their module. */
export function publishedRoutes(folder: string): PublishedRoute[] {
  const manifest = JSON.parse(readFileSync(join(folder, 'mf-manifest.json'), 'utf8')) as {
    routes?: { exposes?: Record<string, { routes?: Omit<PublishedRoute, 'module'>[] }> };
  };
  return Object.entries(manifest.routes?.exposes ?? {}).flatMap(([module, { routes = [] }]) =>
    routes.map((route) => ({ ...route, module })),
  );
}
