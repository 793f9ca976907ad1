/**
 * Publishes a build into the folder its origin serves, so that visitors mid-session need no
 * reload: the build whole into `builds/{id}/`, then the files the target lacks or that differ,
 * then the entry files, `builds/latest.json` last, each renamed over the old one (atomic on
 * POSIX). Older builds' files stay for pages still running them. See docs/operations.md and
 * docs/decisions/0021-pinned-builds-and-rollback.md.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { BuildInfo, BuildMeta } from 'shared/build-info';
import { buildHistoryText, isBuildId, isRevoked, readBuildHistory } from 'shared/deployment';
import {
  checkDeploymentLock,
  readDeployment,
  withDeploymentLock,
  writeAtomically,
  writeDeployment,
  type DeploymentChanges,
} from './deployment';
import {
  copyFolderOf,
  historyFileOf,
  latestFileOf,
  metaDirOf,
  REMOTE_LAYOUT,
  type DeployLayout,
} from './deploy-layout';

export const LATEST_FILE = latestFileOf(REMOTE_LAYOUT);
export const HISTORY_FILE = historyFileOf(REMOTE_LAYOUT);
export const META_DIR = metaDirOf(REMOTE_LAYOUT);
export const MIN_KEPT_BUILDS = 2;

export function buildFolder(id: string, layout: DeployLayout = REMOTE_LAYOUT): string {
  return copyFolderOf(id, layout);
}

export class DeployError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeployError';
  }
}

export type FileAction = 'added' | 'replaced' | 'unchanged' | 'removed';

export interface DeployOptions {
  source?: string;
  buildId?: string;
  stage?: boolean;
  target: string;
  /** At least 2: always the new build, the one it replaced and the one before it. */
  keepBuilds?: number;
  onFile?: (path: string, action: FileAction) => void;
  layout?: DeployLayout;
}

export interface DeployResult {
  buildId: string;
  staged?: boolean;
  previousId?: string;
  added: string[];
  replaced: string[];
  unchanged: string[];
  removed: string[];
}

export async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

function isBuildInfo(value: unknown): value is BuildInfo {
  const candidate = value as Partial<BuildInfo> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.id === 'string' && candidate.id !== '';
}

function isBuildMeta(value: unknown): value is BuildMeta {
  const candidate = value as Partial<BuildMeta> | null;
  return (
    isBuildInfo(value) &&
    typeof candidate?.timestamp === 'number' &&
    Array.isArray(candidate.files) &&
    candidate.files.every((file) => typeof file === 'string')
  );
}

export interface Build {
  id: string;
  timestamp: number;
  files: string[];
  codeVersion?: string;
}

export async function readBuild(source: string, layout: DeployLayout = REMOTE_LAYOUT): Promise<Build> {
  const latestFile = latestFileOf(layout);
  const metaDir = metaDirOf(layout);
  const latestPath = join(source, latestFile);
  if (!existsSync(latestPath)) {
    throw new DeployError(`${source} is not a build: ${latestFile} is missing (run the package's build first)`);
  }
  let latest: unknown;
  try {
    latest = await readJson(latestPath);
  } catch (error) {
    throw new DeployError(`${latestPath} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isBuildInfo(latest)) throw new DeployError(`${latestPath} names no build id`);
  if (!isBuildId(latest.id)) {
    throw new DeployError(
      `${latestPath} names build "${latest.id}", which cannot name its folder builds/${latest.id}/: a build id ` +
        '(BUILD_ID) is letters, digits, ".", "_" and "-", up to 128 of them, and not "meta"',
    );
  }
  const metaFile = `${metaDir}/${latest.id}.json`;
  let meta: unknown;
  try {
    meta = await readJson(join(source, metaFile));
  } catch {
    throw new DeployError(`${source} is an incomplete build: ${metaFile} is missing or not valid JSON`);
  }
  if (!isBuildMeta(meta) || meta.id !== latest.id)
    throw new DeployError(`${join(source, metaFile)} is not the meta file of build ${latest.id}`);
  const files = [...new Set([...meta.files, metaFile])].filter(
    (file) => file !== latestFile && !layout.devShellFiles.includes(file),
  );
  for (const file of files) {
    if (resolve(source, file) !== join(resolve(source), file) || file.split('/').includes('..')) {
      throw new DeployError(`${metaFile} lists a file outside the build: ${file}`);
    }
    // A build's own copy lives in builds/{id}/; a build that shipped one would nest copies.
    if (file.startsWith(`${layout.buildsDir}/`) && !file.startsWith(`${metaDir}/`)) {
      throw new DeployError(`${metaFile} lists ${file}, inside the folders deploys keep builds in`);
    }
  }
  const missing = files.filter((file) => !existsSync(join(source, file)));
  if (missing.length > 0) throw new DeployError(`${source} is an incomplete build; missing: ${missing.join(', ')}`);
  const codeVersion = (meta as { codeVersion?: unknown }).codeVersion;
  return {
    id: latest.id,
    timestamp: typeof latest.timestamp === 'number' ? latest.timestamp : meta.timestamp,
    files,
    ...(typeof codeVersion === 'string' ? { codeVersion } : {}),
  };
}

export async function currentBuildId(target: string, layout = REMOTE_LAYOUT): Promise<string | undefined> {
  try {
    const latest = await readJson<unknown>(join(target, latestFileOf(layout)));
    return isBuildInfo(latest) ? latest.id : undefined;
  } catch {
    return undefined;
  }
}

async function sameContent(a: string, b: string): Promise<boolean> {
  try {
    const [statA, statB] = await Promise.all([stat(a), stat(b)]);
    if (!statB.isFile() || statA.size !== statB.size) return false;
    const [bytesA, bytesB] = await Promise.all([readFile(a), readFile(b)]);
    return bytesA.equals(bytesB);
  } catch {
    return false;
  }
}

export async function buildHistory(target: string, layout = REMOTE_LAYOUT): Promise<string[] | undefined> {
  try {
    return readBuildHistory(await readJson<unknown>(join(target, historyFileOf(layout))));
  } catch {
    return undefined;
  }
}

/** A deployment without one starts from its meta files, newest first. */
async function recordCurrent(target: string, id: string, layout: DeployLayout): Promise<void> {
  const earlier = (await buildHistory(target, layout)) ?? (await deployedBuilds(target, layout)).map((meta) => meta.id);
  await writeAtomically(join(target, historyFileOf(layout)), buildHistoryText(id, earlier));
}

/**
 * Writes in the order that keeps every request answered with files that agree: new files, changed
 * ones, entry files, then `builds/latest.json`.
 */
async function writeBuildFiles(
  from: string,
  to: string,
  files: readonly string[],
  report: (file: string, action: Exclude<FileAction, 'removed'>) => void,
  layout: DeployLayout,
  deployment?: DeploymentChanges,
): Promise<void> {
  const latestFile = latestFileOf(layout);
  const entryFiles = layout.entryFiles;
  const late = [...entryFiles.filter((file) => files.includes(file)), latestFile];
  const early = files.filter((file) => !entryFiles.includes(file) && file !== latestFile);
  const missing = early.filter((file) => !existsSync(join(to, file)));
  const present = early.filter((file) => existsSync(join(to, file)));

  for (const file of [...missing, ...present, ...late]) {
    const source = join(from, file);
    const destination = join(to, file);
    const existed = existsSync(destination);
    if (file === latestFile && deployment) {
      const { changed } = await writeDeployment(to, deployment, latestFile);
      report(file, !changed ? 'unchanged' : existed ? 'replaced' : 'added');
      continue;
    }
    if (existed && (await sameContent(source, destination))) {
      report(file, 'unchanged');
      continue;
    }
    await writeAtomically(destination, { copyOf: source });
    report(file, existed ? 'replaced' : 'added');
  }
}

export async function ownCopyProblem(
  target: string,
  id: string,
  layout: DeployLayout = REMOTE_LAYOUT,
): Promise<string | undefined> {
  const folder = join(target, buildFolder(id, layout));
  if (!existsSync(folder)) return `${buildFolder(id, layout)}/ is missing`;
  try {
    const build = await readBuild(folder, layout);
    if (build.id !== id) return `${buildFolder(id, layout)}/${latestFileOf(layout)} names build ${build.id}`;
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export async function deployedBuilds(target: string, layout = REMOTE_LAYOUT): Promise<BuildMeta[]> {
  const metaDir = metaDirOf(layout);
  let names: string[];
  try {
    names = await readdir(join(target, metaDir));
  } catch {
    return [];
  }
  const metas: BuildMeta[] = [];
  for (const name of names.filter((file) => file.endsWith('.json'))) {
    try {
      const meta = await readJson<unknown>(join(target, metaDir, name));
      if (isBuildMeta(meta) && `${meta.id}.json` === name && isBuildId(meta.id)) metas.push(meta);
    } catch {
      // Not a meta file this tool understands: leave it alone.
    }
  }
  return metas.sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

export function buildBefore<T extends { id: string }>(builds: readonly T[], currentId: string): T | undefined {
  const index = builds.findIndex((build) => build.id === currentId);
  return index === -1 ? undefined : builds[index + 1];
}

/** A meta file naming `../x` or `/etc/x` is damaged or forged: pruning by it would leave the target. */
function pathInside(target: string, file: string, metaFile: string): string {
  const path = resolve(target, file);
  if (file === '' || isAbsolute(file) || file.split(/[/\\]/).includes('..') || !path.startsWith(`${target}${sep}`)) {
    throw new DeployError(`${metaFile} lists a file outside ${target}: ${JSON.stringify(file)}; nothing was removed`);
  }
  return path;
}

async function checkPrunablePaths(target: string, layout: DeployLayout): Promise<void> {
  for (const build of await deployedBuilds(target, layout)) {
    const metaFile = `${metaDirOf(layout)}/${build.id}.json`;
    for (const file of build.files) {
      pathInside(target, file, metaFile);
      pathInside(target, `${buildFolder(build.id, layout)}/${file}`, metaFile);
    }
  }
}

/** A symbolic link could lead out. */
async function removeInside(target: string, path: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  const [root, folder] = await Promise.all([realpath(target), realpath(dirname(path))]);
  if (folder !== root && !folder.startsWith(`${root}${sep}`)) {
    throw new DeployError(`${path} leads outside ${target} (through a symbolic link): it was not removed`);
  }
  await checkDeploymentLock(path);
  await rm(path, { force: true });
  return true;
}

/**
 * Kept: the stable build, the ones `keep` names, the one a rollback restores, newer ones, then the
 * newest whole ones up to `keep`; never a revoked build. Meta files stay: a rollback to a pruned
 * build is told so.
 */
async function prune(
  target: string,
  currentId: string,
  alsoKept: readonly (string | undefined)[],
  keep: number,
  layout: DeployLayout,
) {
  const [latestFile, metaDir] = [latestFileOf(layout), metaDirOf(layout)];
  await checkPrunablePaths(target, layout);
  const state = await readDeployment(target, latestFile);
  const builds = (await deployedBuilds(target, layout)).filter(
    (build) => build.id === currentId || !isRevoked(state, build.id),
  );
  const kept = new Set<string>([currentId]);
  for (const id of alsoKept) if (id && !isRevoked(state, id)) kept.add(id);
  const before = buildBefore(builds, currentId);
  if (before) kept.add(before.id);
  const stableTime = builds.find((build) => build.id === currentId)?.timestamp;
  for (const build of builds) {
    if (stableTime !== undefined && build.timestamp > stableTime) kept.add(build.id);
  }
  for (const build of builds) {
    if (kept.size >= Math.max(keep, MIN_KEPT_BUILDS)) break;
    if (!kept.has(build.id) && (await ownCopyProblem(target, build.id, layout)) === undefined) kept.add(build.id);
  }
  const keptFiles = new Set(
    builds.filter((build) => kept.has(build.id)).flatMap((build) => [...build.files, `${metaDir}/${build.id}.json`]),
  );
  keptFiles.add(latestFile);
  const removed: string[] = [];
  const removeFile = async (file: string, metaFile: string) => {
    if (await removeInside(target, pathInside(target, file, metaFile))) removed.push(file);
  };
  for (const build of (await deployedBuilds(target, layout)).filter((candidate) => !kept.has(candidate.id))) {
    const metaFile = `${metaDir}/${build.id}.json`;
    // Its own copy first: from then on no rollback is offered it, and no host may be pinned to it.
    const folder = buildFolder(build.id, layout);
    if (existsSync(join(target, folder))) {
      for (const file of [...build.files, metaFile, latestFile]) await removeFile(`${folder}/${file}`, metaFile);
      await checkDeploymentLock(join(target, folder));
      await rm(pathInside(target, folder, metaFile), { recursive: true, force: true });
    }
    for (const file of build.files) {
      if (!keptFiles.has(file)) await removeFile(file, metaFile);
    }
  }
  return removed;
}

export function revokedMessage(target: string, id: string): string {
  return `build ${id} is revoked in ${target} (deploy --revoke): no visitor may get it again; deploy a fixed build`;
}

export function canaryRunningMessage(target: string, canary: { id: string; percent: number }): string {
  return (
    `build ${canary.id} is running as a canary for ${canary.percent} % of visitors in ${target}: promote it or ` +
    'abort it first (npm run canary -w <remote> -- <target> promote, or abort)'
  );
}

export async function deploy(options: DeployOptions): Promise<DeployResult> {
  const target = resolve(options.target);
  if (options.keepBuilds !== undefined && (!Number.isInteger(options.keepBuilds) || options.keepBuilds < 1)) {
    throw new DeployError(`keepBuilds must be a positive whole number, got ${options.keepBuilds}`);
  }
  if (options.buildId !== undefined) {
    if (options.stage)
      throw new DeployError('a build already in the target is staged already: --stage takes a build folder');
    if (!isBuildId(options.buildId)) throw new DeployError(`"${options.buildId}" is not a build id`);
    if (!existsSync(target)) throw new DeployError(`${target} does not exist`);
    return withDeploymentLock(target, 'deploy', () => deployKeptBuild(target, options.buildId as string, options));
  }
  const source = resolve(options.source ?? '');
  if (source === target) throw new DeployError('the target folder is the build folder itself');
  const build = await readBuild(source, options.layout);
  const command = options.stage ? 'deploy --stage' : 'deploy';
  return withDeploymentLock(
    target,
    command,
    async () => {
      if (options.stage) return stageInto(build, source, target, options);
      return makeCurrent(build, source, target, true, options);
    },
    { create: true },
  );
}

async function deployKeptBuild(target: string, id: string, options: DeployOptions): Promise<DeployResult> {
  const { layout = REMOTE_LAYOUT } = options;
  const metaDir = metaDirOf(layout);
  if (!existsSync(join(target, metaDir, `${id}.json`))) {
    throw new DeployError(`build ${id} was never deployed or staged in ${target} (there is no ${metaDir}/${id}.json)`);
  }
  const problem = await ownCopyProblem(target, id, layout);
  if (problem)
    throw new DeployError(`build ${id} cannot be made current: its copy in ${target} is not whole (${problem})`);
  const source = join(target, buildFolder(id, layout));
  return makeCurrent(await readBuild(source, layout), source, target, false, options);
}

async function makeCurrent(
  build: Build,
  source: string,
  target: string,
  ownCopy: boolean,
  options: DeployOptions,
): Promise<DeployResult> {
  const { layout = REMOTE_LAYOUT } = options;
  const state = await readDeployment(target, latestFileOf(layout));
  if (state?.canary) throw new DeployError(canaryRunningMessage(target, state.canary));
  if (isRevoked(state, build.id)) throw new DeployError(revokedMessage(target, build.id));
  if (options.keepBuilds !== undefined) await checkPrunablePaths(target, layout);
  const previousId = await currentBuildId(target, layout);
  const replaced = previousId !== undefined && previousId !== build.id ? previousId : undefined;
  const result = await publish(build, source, target, {
    ownCopy,
    onFile: options.onFile,
    layout,
    // The build replaced is the last known good; deploying the same build again keeps it.
    deployment: replaced ? { previous: replaced } : {},
  });
  if (replaced) result.previousId = replaced;

  if (options.keepBuilds !== undefined) {
    const current = await readDeployment(target, latestFileOf(layout));
    const pruned = await prune(target, build.id, [replaced, current?.previous], options.keepBuilds, layout);
    result.removed.push(...pruned);
    for (const file of pruned) options.onFile?.(file, 'removed');
  }
  return result;
}

/** Its own copy, then its meta file, which makes it known to the commands; visitors see nothing. */
async function stageInto(
  build: Build,
  source: string,
  target: string,
  { onFile, layout = REMOTE_LAYOUT }: DeployOptions,
): Promise<DeployResult> {
  const result: DeployResult = { buildId: build.id, staged: true, added: [], replaced: [], unchanged: [], removed: [] };
  const record = (path: string, action: Exclude<FileAction, 'removed'>) => {
    result[action].push(path);
    onFile?.(path, action);
  };
  const folder = buildFolder(build.id, layout);
  await writeBuildFiles(
    source,
    join(target, folder),
    build.files,
    (file, action) => record(`${folder}/${file}`, action),
    layout,
  );
  const metaFile = `${metaDirOf(layout)}/${build.id}.json`;
  const existed = existsSync(join(target, metaFile));
  if (existed && (await sameContent(join(source, metaFile), join(target, metaFile)))) record(metaFile, 'unchanged');
  else {
    await writeAtomically(join(target, metaFile), { copyOf: join(source, metaFile) });
    record(metaFile, existed ? 'replaced' : 'added');
  }
  return result;
}

/** nginx serves the kept copies too. */
async function removeDevShell(target: string, report: (file: string) => void, layout: DeployLayout): Promise<void> {
  if (layout.devShellFiles.length === 0) return;
  const dir = layout.buildsDir;
  const copies = existsSync(join(target, dir))
    ? (await readdir(join(target, dir), { withFileTypes: true }))
        .filter((entry) => entry.isDirectory() && `${dir}/${entry.name}` !== metaDirOf(layout))
        .map((entry) => `${dir}/${entry.name}/`)
    : [];
  for (const folder of ['', ...copies]) {
    for (const file of layout.devShellFiles.map((name) => `${folder}${name}`)) {
      if (!existsSync(join(target, file))) continue;
      await checkDeploymentLock(join(target, file));
      await rm(join(target, file), { force: true });
      report(file);
    }
  }
}

export async function publish(
  build: Build,
  source: string,
  target: string,
  options: {
    ownCopy: boolean;
    onFile?: (path: string, action: FileAction) => void;
    deployment?: DeploymentChanges;
    layout?: DeployLayout;
  },
): Promise<DeployResult> {
  const { layout = REMOTE_LAYOUT } = options;
  const result: DeployResult = { buildId: build.id, added: [], replaced: [], unchanged: [], removed: [] };
  const record =
    (prefix: string) =>
    (file: string, action: Exclude<FileAction, 'removed'>): void => {
      const path = `${prefix}${file}`;
      result[action].push(path);
      options.onFile?.(path, action);
    };
  const copy = join(target, buildFolder(build.id, layout));
  if (options.ownCopy && resolve(source) !== copy) {
    await writeBuildFiles(source, copy, build.files, record(`${buildFolder(build.id, layout)}/`), layout);
  }
  // This build is now what visitors get, canary or not; the host's servers compare its code version.
  const deployment = {
    id: build.id,
    timestamp: build.timestamp,
    canary: null,
    codeVersion: build.codeVersion ?? null,
    ...options.deployment,
  };
  await writeBuildFiles(source, target, build.files, record(''), layout, deployment);
  await removeDevShell(
    target,
    (file) => {
      result.removed.push(file);
      options.onFile?.(file, 'removed');
    },
    layout,
  );
  await recordCurrent(target, build.id, layout);
  return result;
}

export interface CliIo {
  /** npm's INIT_CWD: where it was run. */
  cwd: string;
  packageDir: string;
  out: (line: string) => void;
  err: (line: string) => void;
}
