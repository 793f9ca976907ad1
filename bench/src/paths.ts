/** Where the bench reads and writes: the repository, and its own gitignored `bench/.work/`. */
import { join } from 'node:path';

export const BENCH_DIR = join(__dirname, '..');
export const ROOT_DIR = join(BENCH_DIR, '..');
/** Everything the bench writes; gitignored, and emptied piece by piece as each run needs it. */
export const WORK_DIR = join(BENCH_DIR, '.work');
export const LOG_DIR = join(WORK_DIR, 'logs');
/** The log of a process the bench starts (a build, a server). */
export function logFile(name: string): string {
  return join(LOG_DIR, `${name}.log`);
}
/** The monolith's webpack output (bench/monolith/webpack.config.ts writes here)… */
export const MONOLITH_BUILD_DIR = join(WORK_DIR, 'build', 'monolith');
/** …and the module it generates there: the registry's exposed modules as `import()`s. */
export const MONOLITH_EXPOSED_MODULES_FILE = join(WORK_DIR, 'build', 'monolith-src', 'exposed-modules.js');
/** The copies that are served: other engineers may rebuild the packages' dist folders at any time. */
export const RUN_DIR = join(WORK_DIR, 'run');
/** Written into the monolith's build: each exposed module's scripts (bench/monolith/webpack.config.ts). */
export const MONOLITH_CHUNKS_FILE = 'monolith-chunks.json';
/** The host built again for its webpack stats (host-stats-config.ts), and the stats. */
export const HOST_STATS_DIR = join(WORK_DIR, 'host-stats');
export const HOST_STATS_FILE = join(HOST_STATS_DIR, 'stats.json');
