/**
 * Builds every package once, as a deploy would, before any browser test: those whose build is not
 * current (scripts/build-stamp.ts, as `npm start` decides it), so a build `npm run validate` made
 * beside the lint and the type check is not made again. E2E_SKIP_BUILD=1 reuses the existing
 * builds whatever their stamps say (it still checks they are there).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REMOTES } from 'shared/remotes';
import { PARTS, staleReason } from '../../scripts/build-stamp';
import { RUN_LOG_DIR as LOG_DIR, ROOT_DIR } from './test-env';

/**
 * A file each package's build writes last-ish, and each compiled server; missing means "not
 * built". The remotes are those of the registry (`shared/src/remotes.ts`).
 */
const BUILT_MARKERS = [
  'api/dist/index.js',
  'host/dist-server/main.js',
  'host/dist/index.html',
  'host/dist/_app/builds/latest.json',
  ...Object.values(REMOTES).flatMap(({ packageDir }) =>
    ['dist/mf-manifest.json', 'dist/builds/latest.json', 'dist-server/main.js'].map((file) => `${packageDir}/${file}`),
  ),
];

export const BUILD_LOG = join(LOG_DIR, 'build.log');

export function missingBuildOutputs(): string[] {
  return BUILT_MARKERS.filter((marker) => !existsSync(join(ROOT_DIR, marker)));
}

function tail(file: string, lines: number): string {
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Runs `npm run build` at the repository root for `parts` (every part when none are named), its
 * output in `.e2e-tmp/logs/build.log`.
 */
export async function buildAll(parts: readonly string[] = []): Promise<void> {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = createWriteStream(BUILD_LOG);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(npm, ['run', 'build', ...(parts.length > 0 ? ['--', ...parts] : [])], {
      cwd: ROOT_DIR,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once('error', reject);
    child.once('close', resolve);
  });
  await new Promise<void>((resolve) => log.end(resolve));
  if (code !== 0)
    throw new Error(`npm run build failed (exit ${code}); ${BUILD_LOG} ends with:\n${tail(BUILD_LOG, 40)}`);
}

export async function ensureBuilt(): Promise<void> {
  if (process.env.E2E_SKIP_BUILD === '1') {
    const missing = missingBuildOutputs();
    if (missing.length > 0) {
      throw new Error(
        `E2E_SKIP_BUILD=1 but the build is incomplete (missing ${missing.join(', ')}); run npm run build`,
      );
    }
    console.log('[e2e] E2E_SKIP_BUILD=1: testing the existing builds');
    return;
  }
  const started = Date.now();
  const stale = Object.keys(PARTS).filter((part) => staleReason(ROOT_DIR, part) !== undefined);
  if (stale.length === 0) {
    console.log("[e2e] every package's build is current (its build stamp): not built again");
    return;
  }
  console.log(`[e2e] building ${stale.join(', ')} (log: ${BUILD_LOG})…`);
  await buildAll(stale);
  console.log(`[e2e] built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
