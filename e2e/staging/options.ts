/**
 * `npm run staging`'s command line and the ports it takes: every listener on a port of its own
 * from `--base-port` on (4200 by default: below the browser suite's blocks from 4300, away from
 * a developer's 3000-3004, the bench's 5300-5399 and the metrics ports 9300-9304 of `npm start`).
 */
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type TopologyPorts } from '../support/topology';

export const DEFAULT_BASE_PORT = 4200;
export const DEFAULT_API_COUNT = 2;
/** API processes at most: their ports sit in a block of 20 each. */
export const MAX_API_COUNT = 20;
/** The folder at the repository root, git-ignored, when `--dir` is not given. */
export const DEFAULT_DIR = '.staging';

export const USAGE = `usage: npm run staging -- [--dir <folder>] [--base-port <port>] [--api <n>]
       npm run staging -- sample [--dir <folder>] [--url <site>]

Starts the production topology on this machine (nginx, the host's server, the remotes' deploy
folders, API processes on PostgreSQL, Prometheus with its exporters and the project's rules),
built parts only (npm run build first), every file in one folder; Ctrl-C stops it all.
  --dir <folder>      where everything goes, emptied first (default ${DEFAULT_DIR}/ at the repository root)
  --base-port <port>  the first of the ports it listens on (default ${DEFAULT_BASE_PORT}; it takes ports up to base + ${10 + 2 * MAX_API_COUNT - 1})
  --api <n>           API processes behind nginx (default ${DEFAULT_API_COUNT}, at most ${MAX_API_COUNT})
sample: makes a real gift and redeem session through the running staging's API, and prints the
gate's --path for each (the site is read from <folder>/staging.json unless --url names it).`;

export interface StagingPorts extends TopologyPorts {
  prometheus: number;
  nginxExporter: number;
  postgresExporter: number;
}

export type StagingCommand =
  | { command: 'start'; dir: string; ports: StagingPorts }
  | { command: 'sample'; dir: string; url?: string }
  | { command: 'help' };

/** Every port of the plan from `base`: fixed offsets, the API processes from +10, their metrics from +30. */
export function stagingPorts(base: number, apiCount: number): StagingPorts {
  const api = Array.from({ length: apiCount }, (_, index) => index);
  return {
    nginx: base,
    host: base + 1,
    status: base + 2,
    hostMetrics: base + 3,
    prometheus: base + 4,
    nginxExporter: base + 5,
    postgresExporter: base + 6,
    database: base + 7,
    apis: api.map((index) => base + 10 + index),
    apiMetrics: api.map((index) => base + 10 + MAX_API_COUNT + index),
  };
}

/** Every port of a plan, for checking they are free before and after. */
export function allPorts(ports: StagingPorts): number[] {
  return Object.values(ports).flatMap((value: number | readonly number[]) =>
    typeof value === 'number' ? [value] : [...value],
  );
}

function whole(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** The folder: `--dir` from where the command was typed, else the repository's `.staging/`. */
export function stagingDir(raw: string | undefined, cwd: string, rootDir: string): string {
  if (raw === undefined) return join(rootDir, DEFAULT_DIR);
  if (raw === '') throw new Error('--dir needs a folder');
  return isAbsolute(raw) ? raw : resolve(cwd, raw);
}

/** Reads the command line; throws with the problem (the caller prints USAGE). */
export function parseStagingArgs(argv: readonly string[], cwd: string, rootDir: string): StagingCommand {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      dir: { type: 'string' },
      'base-port': { type: 'string' },
      api: { type: 'string' },
      url: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return { command: 'help' };
  const dir = stagingDir(values.dir, cwd, rootDir);
  const [command = 'start', ...rest] = positionals;
  if (rest.length > 0 || (command !== 'start' && command !== 'sample'))
    throw new Error(`unknown command ${positionals.join(' ')}: give none (start) or sample`);
  if (command === 'sample') {
    const stray = (['base-port', 'api'] as const).find((name) => values[name] !== undefined);
    if (stray) throw new Error(`sample takes no --${stray}`);
    return { command, dir, url: values.url };
  }
  if (values.url !== undefined) throw new Error('--url is for sample: staging serves its own site');
  const apiCount = whole('api', values.api, DEFAULT_API_COUNT, 1, MAX_API_COUNT);
  const highestBase = 65535 - 10 - 2 * MAX_API_COUNT;
  const base = whole('base-port', values['base-port'], DEFAULT_BASE_PORT, 1024, highestBase);
  return { command: 'start', dir, ports: stagingPorts(base, apiCount) };
}
