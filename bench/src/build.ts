/**
 * The builds: `npm run build` at the root (the federated parts, unless --no-build), the monolith
 * (bench/monolith/webpack.config.ts), and the copies the bench serves, made before serving
 * because other engineers rebuild the packages' dist folders at any time.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REMOTES } from 'shared/remotes';
import { runToEnd } from './processes';
import { HOST_STATS_FILE, MONOLITH_BUILD_DIR, ROOT_DIR } from './paths';
import { RUN, SSR_MONOLITH_ORIGIN } from './servers';
import { writeMonolithRemotes } from './ssr-monolith';

export interface BuildTimes {
  /** Wall time of `npm run build`, undefined when skipped. */
  federatedMs?: number;
  /** Packages whose webpack filesystem cache existed before that build (none: a cold build). */
  warmCaches: string[];
  monolithMs: number;
}

/** Each part's folders to copy, and files that must be there once it is built. */
interface Part {
  dir: string;
  copy: string[];
  markers: string[];
  /** The file whose build id tells whether the part was rebuilt while it was copied. */
  buildFile?: string;
}

const PARTS: Part[] = [
  {
    dir: 'host',
    copy: ['dist', 'dist-server'],
    markers: ['dist/index.html', 'dist/_app/builds/latest.json', 'dist-server/main.js'],
    buildFile: 'dist/_app/builds/latest.json',
  },
  ...Object.values(REMOTES).map(({ packageDir }) => ({
    dir: packageDir,
    copy: ['dist', 'dist-server'],
    markers: ['dist/mf-manifest.json', 'dist/remoteEntry.js', 'dist/builds/latest.json', 'dist-server/main.js'],
    buildFile: 'dist/builds/latest.json',
  })),
  { dir: 'api', copy: ['dist', 'migrations', 'catalogue.json'], markers: ['dist/index.js'] },
];

const WEBPACK_CACHE = join('node_modules', '.cache', 'webpack');

function buildIdOf(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { id?: string }).id;
  } catch {
    return undefined;
  }
}

export async function buildFederated(): Promise<Pick<BuildTimes, 'federatedMs' | 'warmCaches'>> {
  const warmCaches = ['host', ...Object.values(REMOTES).map((remote) => remote.packageDir)].filter((dir) => {
    const cache = join(ROOT_DIR, dir, WEBPACK_CACHE);
    return existsSync(cache) && readdirSync(cache).length > 0;
  });
  const federatedMs = await runToEnd('build', 'npm', ['run', 'build'], { cwd: ROOT_DIR });
  return { federatedMs, warmCaches };
}

export async function buildMonolith(): Promise<number> {
  return runToEnd(
    'monolith-build',
    join(ROOT_DIR, 'node_modules', '.bin', 'webpack'),
    ['--config', join('bench', 'monolith', 'webpack.config.ts'), '--mode', 'production'],
    { cwd: ROOT_DIR, env: process.env },
  );
}

/** The host built again with its own config into bench/.work/host-stats/, for its webpack stats (host-packages.ts). */
export async function buildHostStats(): Promise<number> {
  rmSync(HOST_STATS_FILE, { force: true });
  return runToEnd(
    'host-stats-build',
    join(ROOT_DIR, 'node_modules', '.bin', 'webpack'),
    ['--config', join('..', 'bench', 'src', 'host-stats-config.ts'), '--mode', 'production', '--json', HOST_STATS_FILE],
    { cwd: join(ROOT_DIR, 'host'), env: process.env },
  );
}

function missing(base: string, markers: readonly string[]): string[] {
  return markers.filter((marker) => !existsSync(join(base, marker)));
}

/**
 * The part's own `node_modules` when npm gave it one (a version of a package other than the one
 * the root holds): its server bundle requires them, and from the copy they would resolve to the
 * root's version.
 */
function ownModules(source: string): string[] {
  return existsSync(join(source, 'node_modules')) ? ['node_modules'] : [];
}

/** Copies one part; tries again when its build changed (or was half there) while it was copied. */
async function copyPart(part: Part, into: string): Promise<void> {
  const source = join(ROOT_DIR, part.dir);
  for (let attempt = 1; ; attempt += 1) {
    const before = part.buildFile ? buildIdOf(join(source, part.buildFile)) : undefined;
    rmSync(into, { recursive: true, force: true });
    mkdirSync(into, { recursive: true });
    const absent = missing(source, part.markers);
    if (absent.length === 0) {
      for (const item of [...part.copy, ...ownModules(source)])
        cpSync(join(source, item), join(into, item), { recursive: true });
    }
    const after = part.buildFile ? buildIdOf(join(into, part.buildFile)) : undefined;
    const copied = absent.length === 0 && missing(into, part.markers).length === 0 && before === after;
    if (copied) return;
    if (attempt === 3) {
      throw new Error(
        absent.length > 0
          ? `${part.dir} is not built (missing ${absent.join(', ')}): run npm run build first (--no-build and --check serve the current builds)`
          : `${part.dir} was being rebuilt while the bench copied it; run the bench again`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
}

/**
 * The API's data folder, new for each run: a copy of BENCH_API_DATA_TEMPLATE when it names one (a
 * PGlite cluster initdb made, as the browser suite keeps for its workers), so that the API's start
 * skips initdb (about half of its CPU); empty otherwise, for the API to initialise.
 */
export function freshApiData(template = process.env.BENCH_API_DATA_TEMPLATE): void {
  rmSync(RUN.apiData, { recursive: true, force: true });
  if (template) cpSync(template, RUN.apiData, { recursive: true });
}

/** The federated parts and the API, into bench/.work/run/. */
export async function copyFederated(): Promise<void> {
  for (const part of PARTS) await copyPart(part, part.dir === 'api' ? RUN.api : join(RUN.federated, part.dir));
}

/** The monolith with the host's server (the federated copy's, the same file). */
export function copyMonolith(): void {
  const host = join(RUN.monolith, 'host');
  rmSync(host, { recursive: true, force: true });
  mkdirSync(host, { recursive: true });
  cpSync(MONOLITH_BUILD_DIR, join(host, 'dist'), { recursive: true });
  for (const item of ['dist-server', ...ownModules(join(RUN.federated, 'host'))])
    cpSync(join(RUN.federated, 'host', item), join(host, item), { recursive: true });
  const absent = missing(host, ['dist/index.html', 'dist/_app/builds/latest.json', 'dist-server/main.js']);
  if (absent.length > 0) throw new Error(`the monolith build is incomplete: missing ${absent.join(', ')}`);
  // What the server-rendered monolith's host server reads as its remotes: the monolith's chunks
  // and the federated remotes' prerendered pages (ssr-monolith.ts).
  writeMonolithRemotes(join(host, 'dist'), RUN.federated, RUN.monolithRemotes, `${SSR_MONOLITH_ORIGIN}/`);
}
