/**
 * Whether a part's build is current: `npm run build` stamps each part with its inputs' hash and its
 * output files' sizes and times, and `npm start` rebuilds a part whose stamp is missing or disagrees.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { REMOTES } from 'shared/remotes';
import { OWN_SPEC_FILE } from '../build/spec-origin';

const REMOTE_MARKERS = ['dist/builds/latest.json', 'dist-server/main.js'];

export const PARTS: Readonly<Record<string, readonly string[]>> = {
  api: ['dist/index.js'],
  ...Object.fromEntries(Object.values(REMOTES).map((remote) => [remote.packageDir, REMOTE_MARKERS])),
  host: ['dist/_app/builds/latest.json', 'dist-server/main.js'],
};

/** A part of PARTS, or a remote that carries its own spec; undefined for any other folder. */
export function partMarkers(root: string, part: string): readonly string[] | undefined {
  if (Object.hasOwn(PARTS, part)) return PARTS[part];
  return /^remote-[a-z][a-z0-9]*$/.test(part) && existsSync(join(root, part, OWN_SPEC_FILE))
    ? REMOTE_MARKERS
    : undefined;
}

const ROOT_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'webpack.config.base.ts',
  'scripts/build-server.ts',
];
const SHARED_INPUTS = ['shared', 'server', 'build'];
const NOT_INPUTS = new Set(['node_modules', 'dist', 'dist-server', 'coverage', '.data', '.e2e-tmp', '.git']);
const TEST_FILE = /\.test\.[cm]?[jt]sx?$|\.tsbuildinfo$|^\.DS_Store$/;

export const STAMP = join('node_modules', '.cache', 'build-stamp.json');

interface FileState {
  size: number;
  mtimeMs: number;
}

export interface Stamp {
  inputs: string;
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

export function partInputs(root: string, part: string): string[] {
  const files = [part, ...SHARED_INPUTS].flatMap((dir) => filesUnder(join(root, dir)));
  const rootFiles = ROOT_INPUTS.map((file) => join(root, file)).filter((file) => statOf(file));
  return [...files, ...rootFiles]
    .map((file) => relative(root, file).split(sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

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
 * Both halves of the host's build carry it, so its server tells a build of its own code from one
 * that needs a restart.
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

/** A build that fails or is stopped leaves no stamp behind. */
export function removeStamp(root: string, part: string): void {
  rmSync(stampPath(root, part), { force: true });
}

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
