/**
 * Publishes a remote's build (its `dist/`) into the folder its origin serves, so that visitors
 * in the middle of a session need no reload:
 *
 * 1. the new build's files that the target lacks or that differ (new content-hashed chunks,
 *    the new `builds/meta/{id}.json`, payloads) are written first; the previous builds' files
 *    stay where they are, so a page that still runs the old remote entry finds its chunks;
 * 2. then the files that point at the others, each swapped in one step: `remoteEntry.js`,
 *    `mf-stats.json`, `mf-manifest.json`, `index.html`;
 * 3. `builds/latest.json` last, so a host's version check sees the new build only once every
 *    file of it is in place.
 *
 * Every file is written to a temporary name in its own folder and renamed over the old one,
 * which is atomic on POSIX file systems: a request gets the old file or the new one, never a
 * half-written one. Optionally, files of builds older than the newest `keepBuilds` are removed
 * (never those of the new build or of the one before it).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BuildInfo, BuildMeta } from '../build-info';

export const LATEST_FILE = 'builds/latest.json';
export const META_DIR = 'builds/meta';
/** Swapped after every other file of the build, in this order; `builds/latest.json` after them. */
export const ENTRY_FILES = ['remoteEntry.js', 'mf-stats.json', 'mf-manifest.json', 'index.html'] as const;
/** The fewest builds `keepBuilds` keeps: the new one and the one visitors may still be running. */
export const MIN_KEPT_BUILDS = 2;

export class DeployError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeployError';
  }
}

export type FileAction = 'added' | 'replaced' | 'unchanged' | 'removed';

export interface DeployOptions {
  /** The built folder (a remote's `dist/`). */
  source: string;
  /** The folder the remote's origin serves; created when absent. */
  target: string;
  /** Keep the files of this many newest builds (at least 2) and remove older ones' files. */
  keepBuilds?: number;
  /** Called as each file is put in place (or removed), in order. */
  onFile?: (path: string, action: FileAction) => void;
}

export interface DeployResult {
  buildId: string;
  /** Paths relative to the target, in the order they were written. */
  added: string[];
  replaced: string[];
  unchanged: string[];
  /** Files of pruned builds (with `keepBuilds`). */
  removed: string[];
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

function isBuildInfo(value: unknown): value is BuildInfo {
  const candidate = value as Partial<BuildInfo> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.id === 'string' && candidate.id !== '';
}

function isBuildMeta(value: unknown): value is BuildMeta {
  const candidate = value as Partial<BuildMeta> | null;
  return (
    isBuildInfo(value) && Array.isArray(candidate?.files) && candidate.files.every((file) => typeof file === 'string')
  );
}

/** The build in `source`: its id and every file to publish, checked to be there. */
async function readBuild(source: string): Promise<{ id: string; files: string[] }> {
  const latestPath = join(source, LATEST_FILE);
  if (!existsSync(latestPath)) {
    throw new DeployError(`${source} is not a build: ${LATEST_FILE} is missing (run the package's build first)`);
  }
  let latest: unknown;
  try {
    latest = await readJson(latestPath);
  } catch (error) {
    throw new DeployError(`${latestPath} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isBuildInfo(latest)) throw new DeployError(`${latestPath} names no build id`);
  const metaFile = `${META_DIR}/${latest.id}.json`;
  let meta: unknown;
  try {
    meta = await readJson(join(source, metaFile));
  } catch {
    throw new DeployError(`${source} is an incomplete build: ${metaFile} is missing or not valid JSON`);
  }
  if (!isBuildMeta(meta) || meta.id !== latest.id)
    throw new DeployError(`${join(source, metaFile)} is not the meta file of build ${latest.id}`);
  const files = [...new Set([...meta.files, metaFile])].filter((file) => file !== LATEST_FILE);
  for (const file of files) {
    if (resolve(source, file) !== join(resolve(source), file) || file.split('/').includes('..')) {
      throw new DeployError(`${metaFile} lists a file outside the build: ${file}`);
    }
  }
  const missing = files.filter((file) => !existsSync(join(source, file)));
  if (missing.length > 0) throw new DeployError(`${source} is an incomplete build; missing: ${missing.join(', ')}`);
  return { id: latest.id, files };
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

/** Copies to a temporary name beside the destination, then renames it over the old file. */
async function putAtomically(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  const temporary = join(dirname(to), `.${randomBytes(6).toString('hex')}.deploy-tmp`);
  try {
    await copyFile(from, temporary);
    await rename(temporary, to);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The meta files of the builds in `target`, newest first. */
async function deployedBuilds(target: string): Promise<BuildMeta[]> {
  let names: string[];
  try {
    names = await readdir(join(target, META_DIR));
  } catch {
    return [];
  }
  const metas: BuildMeta[] = [];
  for (const name of names.filter((file) => file.endsWith('.json'))) {
    try {
      const meta = await readJson<unknown>(join(target, META_DIR, name));
      if (isBuildMeta(meta) && `${meta.id}.json` === name) metas.push(meta);
    } catch {
      // Not a meta file this tool understands: leave it alone.
    }
  }
  return metas.sort((a, b) => b.timestamp - a.timestamp);
}

/** Removes the files only builds older than the newest `keep` list, and their meta files. */
async function prune(target: string, currentId: string, keep: number): Promise<string[]> {
  const builds = await deployedBuilds(target);
  const current = builds.find((build) => build.id === currentId);
  const others = builds.filter((build) => build.id !== currentId);
  const kept = [...(current ? [current] : []), ...others.slice(0, Math.max(keep, MIN_KEPT_BUILDS) - 1)];
  const pruned = others.filter((build) => !kept.includes(build));
  const keptFiles = new Set(kept.flatMap((build) => [...build.files, `${META_DIR}/${build.id}.json`]));
  keptFiles.add(LATEST_FILE);
  const removed: string[] = [];
  for (const build of pruned) {
    for (const file of [...build.files, `${META_DIR}/${build.id}.json`]) {
      if (keptFiles.has(file) || removed.includes(file)) continue;
      await rm(join(target, file), { force: true });
      removed.push(file);
    }
  }
  return removed;
}

export async function deploy(options: DeployOptions): Promise<DeployResult> {
  const source = resolve(options.source);
  const target = resolve(options.target);
  if (source === target) throw new DeployError('the target folder is the build folder itself');
  if (options.keepBuilds !== undefined && (!Number.isInteger(options.keepBuilds) || options.keepBuilds < 1)) {
    throw new DeployError(`keepBuilds must be a positive whole number, got ${options.keepBuilds}`);
  }
  const build = await readBuild(source);
  await mkdir(target, { recursive: true });

  const result: DeployResult = { buildId: build.id, added: [], replaced: [], unchanged: [], removed: [] };
  const entryFiles: readonly string[] = ENTRY_FILES;
  const late = [...ENTRY_FILES.filter((file) => build.files.includes(file)), LATEST_FILE];
  const early = build.files.filter((file) => !entryFiles.includes(file));
  // Files the target lacks first (nothing refers to them yet), then changed ones, then the
  // entry files, then latest.json.
  const missing = early.filter((file) => !existsSync(join(target, file)));
  const present = early.filter((file) => existsSync(join(target, file)));

  for (const file of [...missing, ...present, ...late]) {
    const from = join(source, file);
    const to = join(target, file);
    const existed = existsSync(to);
    if (existed && (await sameContent(from, to))) {
      result.unchanged.push(file);
      options.onFile?.(file, 'unchanged');
      continue;
    }
    await putAtomically(from, to);
    const action = existed ? 'replaced' : 'added';
    result[action].push(file);
    options.onFile?.(file, action);
  }

  if (options.keepBuilds !== undefined) {
    result.removed = await prune(target, build.id, options.keepBuilds);
    for (const file of result.removed) options.onFile?.(file, 'removed');
  }
  return result;
}

const USAGE = `Usage: npm run deploy -w <remote> -- <target folder> [--from <build folder>] [--keep-builds <n>]

Publishes the remote's build (default: its dist/) into the target folder, keeping the previous
builds' files; remoteEntry.js, mf-manifest.json and builds/latest.json are replaced last.
  --from <folder>      the build to publish (default: dist/ of the package)
  --keep-builds <n>    also remove the files of builds older than the newest n (n >= ${MIN_KEPT_BUILDS})
  -h, --help           this text
An option's value may also follow an equals sign: --keep-builds=3.`;

const OPTIONS = {
  from: { type: 'string' },
  'keep-builds': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const parseCommandLine = (argv: readonly string[]) =>
  parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });

/** What parseArgs refused, in this command's words, naming the option as it was typed. */
function describeArgsError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const option = /'(-[^' ,<]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}`;
  // "argument missing" (--keep-builds last), "ambiguous" (followed by another option).
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option && /missing|ambiguous/.test(message))
    return `${option} needs a value`;
  return message;
}

export interface CliIo {
  /** Where relative paths on the command line start from (npm's INIT_CWD: where it was run). */
  cwd: string;
  /** The package folder, whose `dist/` is the default build. */
  packageDir: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The deploy command; resolves to the process exit code. */
export async function runDeployCli(argv: readonly string[], io: CliIo): Promise<number> {
  const usageError = (problem: string) => {
    io.err(`deploy: ${problem}\n\n${USAGE}`);
    return 1;
  };
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    return usageError(describeArgsError(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const { from } = values;
  if (from === '') return usageError('--from needs a value');
  let keepBuilds: number | undefined;
  if (values['keep-builds'] !== undefined) {
    const value = values['keep-builds'];
    keepBuilds = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(keepBuilds) || keepBuilds < MIN_KEPT_BUILDS) {
      return usageError(`--keep-builds must be a whole number of at least ${MIN_KEPT_BUILDS}, got "${value}"`);
    }
  }
  if (positionals.length !== 1) {
    return usageError(positionals.length === 0 ? 'the target folder is missing' : 'give exactly one target folder');
  }
  const source = from === undefined ? join(io.packageDir, 'dist') : resolve(io.cwd, from);
  const target = resolve(io.cwd, positionals[0] as string);
  try {
    const result = await deploy({ source, target, keepBuilds });
    io.out(
      `deploy: build ${result.buildId} published to ${target}: ${result.added.length} added, ` +
        `${result.replaced.length} replaced, ${result.unchanged.length} unchanged` +
        (keepBuilds === undefined
          ? '; earlier builds kept'
          : `; ${result.removed.length} files of older builds removed`),
    );
    return 0;
  } catch (error) {
    io.err(`deploy: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
