/**
 * Whether a part's build is current. `npm run build` (scripts/build-all.ts) writes a stamp at the
 * end of each part's build, `<part>/node_modules/.cache/build-stamp.json`: a hash of the part's
 * inputs as they were when the build started, and the size and time of each file the build
 * leaves (its markers). `npm start` rebuilds a part whose stamp is missing or disagrees: its
 * sources, `shared`, `server`, the build configuration (`build/` included) or the installed
 * packages changed since, or its
 * files were rebuilt, or removed, some other way (`npm run build:web`, say).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { REMOTES } from 'shared/remotes';
import { OWN_SPEC_FILE } from '../build/spec-origin';

/**
 * Every part `npm start` serves, with the files that exist once it is built: its server bundle
 * and its web build's last file, relative to its folder. The remotes are those of the registry
 * (`shared/src/remotes.ts`).
 */
const REMOTE_MARKERS = ['dist/builds/latest.json', 'dist-server/main.js'];

export const PARTS: Readonly<Record<string, readonly string[]>> = {
  api: ['dist/index.js'],
  ...Object.fromEntries(Object.values(REMOTES).map((remote) => [remote.packageDir, REMOTE_MARKERS])),
  host: ['dist/_app/builds/latest.json', 'dist-server/main.js'],
};

/**
 * The markers of a part `npm run build` can build: one of PARTS, or a remote that carries its own
 * spec (a `remote-<name>/` folder with its `remote-spec.ts`), built and deployed on its own;
 * undefined for any other folder.
 */
export function partMarkers(root: string, part: string): readonly string[] | undefined {
  if (Object.hasOwn(PARTS, part)) return PARTS[part];
  return /^remote-[a-z][a-z0-9]*$/.test(part) && existsSync(join(root, part, OWN_SPEC_FILE))
    ? REMOTE_MARKERS
    : undefined;
}

/** Files at the repository's root every build reads. */
const ROOT_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'webpack.config.base.ts',
  'scripts/build-server.ts',
];
/**
 * Folders besides the part's own that every part compiles in: the contract and browser runtime,
 * the servers' common code (bundled into each server), the webpack plugins every build runs.
 */
const SHARED_INPUTS = ['shared', 'server', 'build'];
/** Folders that builds, installs, tests and servers write: never inputs. */
const NOT_INPUTS = new Set(['node_modules', 'dist', 'dist-server', 'coverage', '.data', '.e2e-tmp', '.git']);
/** Tests are no build's input. */
const TEST_FILE = /\.test\.[cm]?[jt]sx?$|\.tsbuildinfo$|^\.DS_Store$/;

export const STAMP = join('node_modules', '.cache', 'build-stamp.json');

interface FileState {
  size: number;
  mtimeMs: number;
}

export interface Stamp {
  /** The hash of the part's inputs when its build started. */
  inputs: string;
  /** Each marker as the build left it. */
  outputs: Record<string, FileState>;
}

function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return NOT_INPUTS.has(entry.name) ? [] : filesUnder(path);
    return entry.isFile() && !TEST_FILE.test(entry.name) ? [path] : [];
  });
}

/** The files a part's build reads, relative to the root, sorted. */
export function partInputs(root: string, part: string): string[] {
  const files = [part, ...SHARED_INPUTS].flatMap((dir) => filesUnder(join(root, dir)));
  const rootFiles = ROOT_INPUTS.map((file) => join(root, file)).filter((file) => statOf(file));
  return [...files, ...rootFiles]
    .map((file) => relative(root, file).split(sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One hash of every input's path and content. */
export function inputsHash(root: string, part: string): string {
  const hash = createHash('sha256');
  for (const file of partInputs(root, part)) {
    hash.update(`${file}\0`);
    hash.update(
      createHash('sha256')
        .update(readFileSync(join(root, file)))
        .digest(),
    );
  }
  return hash.digest('hex');
}

/**
 * The code version of a part's build: the start of its inputs' hash. Both halves of the host's
 * build carry it (its web build's `latest.json` and meta file, its server bundle), so the host's
 * server can tell a published build of its own code from one that needs its server restarted.
 */
export function codeVersionOf(root: string, part: string): string {
  return inputsHash(root, part).slice(0, 16);
}

function statOf(path: string): FileState | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat?.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
}

function stampPath(root: string, part: string): string {
  return join(root, part, STAMP);
}

export function readStamp(root: string, part: string): Stamp | undefined {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(root, part), 'utf8')) as Partial<Stamp>;
    return typeof stamp.inputs === 'string' && stamp.outputs && typeof stamp.outputs === 'object'
      ? (stamp as Stamp)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Before a part's build: a build that fails or is stopped leaves no stamp behind. */
export function removeStamp(root: string, part: string): void {
  rmSync(stampPath(root, part), { force: true });
}

/** After a part's build succeeded: `inputs` is the hash taken when it started. */
export function writeStamp(root: string, part: string, inputs: string, markers = PARTS[part] ?? []): void {
  const outputs: Record<string, FileState> = {};
  for (const marker of markers) {
    const state = statOf(join(root, part, marker));
    if (!state) throw new Error(`${part}'s build left no ${marker}`);
    outputs[marker] = state;
  }
  const path = stampPath(root, part);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ inputs, outputs } satisfies Stamp, null, 2)}\n`);
}

/** Why a part needs building, or undefined when its build is current. */
export function staleReason(root: string, part: string, markers = PARTS[part] ?? []): string | undefined {
  const missing = markers.filter((marker) => !statOf(join(root, part, marker)));
  if (missing.length > 0) return `not built (no ${missing.join(', ')})`;
  const stamp = readStamp(root, part);
  if (!stamp) return 'no build stamp (built before stamps, or by a script other than `build`)';
  for (const marker of markers) {
    const now = statOf(join(root, part, marker));
    const then = stamp.outputs[marker];
    if (!now || !then || now.size !== then.size || now.mtimeMs !== then.mtimeMs) {
      return `${marker} changed since its build`;
    }
  }
  if (stamp.inputs !== inputsHash(root, part)) return 'sources changed since its build';
  return undefined;
}
