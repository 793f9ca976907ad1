/**
 * Where a worker of the suite runs: repository paths and its own block of ports, away from a
 * developer's `npm start` on 3000-3004, the bench's 5300-5399 and every other worker. Each
 * Playwright worker is a process of its own with a parallel index (0, 1, …; TEST_PARALLEL_INDEX),
 * and its block starts PORTS_PER_WORKER after the previous worker's: the servers on the first
 * five ports, third-party stand-ins from +10, ports handed out at run time (nginx, a production
 * copy, a new remote) from +20, and from +50 the fixed ports of a command the worker runs (`npm
 * run staging --base-port`). E2E_BASE_PORT moves every block (4300 by default).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REMOTE_NAMES as REGISTERED_REMOTES, REMOTES, type RemoteName as RegisteredRemote } from 'shared/remotes';
import { TEST_CHROMIUM_PATH } from 'testbed/chromium';

export const E2E_DIR = join(__dirname, '..');
export const ROOT_DIR = join(E2E_DIR, '..');

/** Ports each worker owns. */
export const PORTS_PER_WORKER = 100;
/** The first port of the block handed out at run time (`freePort`). */
export const FREE_PORTS_OFFSET = 20;
/**
 * The first port of the block a command with ports of its own takes from the base it is given
 * (`npm run staging --base-port`, at most 50): `freePort` hands out none of them, so the worker's
 * servers and shared topologies stay up beside the command.
 */
export const FIXED_PORTS_OFFSET = 50;
/** The most workers the ports leave room for below 65536 from the highest base port. */
const MAX_WORKERS = 16;

function basePort(): number {
  const raw = process.env.E2E_BASE_PORT;
  if (raw === undefined || raw === '') return 4300;
  const port = Number(raw);
  const highest = 65535 - PORTS_PER_WORKER * MAX_WORKERS;
  if (!Number.isInteger(port) || port < 1024 || port > highest) {
    throw new Error(`E2E_BASE_PORT must be a port number from 1024 to ${highest}, got "${raw}"`);
  }
  return port;
}

function workerIndex(): number {
  const index = Number(process.env.TEST_PARALLEL_INDEX ?? '0');
  if (!Number.isInteger(index) || index < 0 || index >= MAX_WORKERS) {
    throw new Error(`the suite runs at most ${MAX_WORKERS} workers (TEST_PARALLEL_INDEX ${index})`);
  }
  return index;
}

/** The bench's own ports (bench/src/servers.ts): no worker's block may overlap them. */
export const BENCH_PORTS = { first: 5300, last: 5399 } as const;

/**
 * The first port of the block of worker `index`: the blocks follow each other from `runBase`,
 * and one that would overlap the bench's ports moves past them (with E2E_BASE_PORT 5200, the
 * second worker's block is 5400-5499, not 5300-5399), so a bench run beside the suite, and the
 * suite's own bench test, never meet a worker's server.
 */
export function blockStart(runBase: number, index: number): number {
  let start = runBase;
  for (let block = 0; block <= index; block += 1) {
    if (block > 0) start += PORTS_PER_WORKER;
    if (start <= BENCH_PORTS.last && start + PORTS_PER_WORKER > BENCH_PORTS.first) start = BENCH_PORTS.last + 1;
  }
  return start;
}

const RUN_BASE = basePort();
/** The first port of this worker's block. */
export const BASE = blockStart(RUN_BASE, workerIndex());
/** The base port to give a command that takes fixed ports from it (FIXED_PORTS_OFFSET). */
export const FIXED_PORTS_BASE = BASE + FIXED_PORTS_OFFSET;

/**
 * Everything a run writes, gitignored, one folder per E2E_BASE_PORT so that runs side by side
 * keep apart; emptied by the global setup.
 */
export const SUITE_TMP_DIR = join(E2E_DIR, '.e2e-tmp', String(RUN_BASE));
/**
 * What a run keeps outside the repository (a copy of it, which must not sit inside it where
 * the repository's tools would find it); emptied by the global setup.
 */
export const OUTSIDE_TMP_DIR = join(tmpdir(), `gift-box-e2e-${RUN_BASE}`);
/** This worker's logs, API data and temporary folders. */
export const TMP_DIR = join(SUITE_TMP_DIR, `worker-${BASE}`);
/** Test results: a failed test's trace, screenshot and page snapshot, and the HTML report. */
export const RESULTS_DIR = join(SUITE_TMP_DIR, 'results');
export const LOG_DIR = join(TMP_DIR, 'logs');
/** The log of the run's builds (the global setup's and the shared ones'). */
export const RUN_LOG_DIR = join(SUITE_TMP_DIR, 'logs');
/** The API's embedded database for this worker. */
export const API_DATA_DIR = join(TMP_DIR, 'api-data');

/** The remotes are those of the registry (`shared/src/remotes.ts`). */
export type RemoteName = RegisteredRemote;
export type ServerName = 'host' | RemoteName | 'api';

export const REMOTE_NAMES: readonly RemoteName[] = REGISTERED_REMOTES;
export const SERVER_NAMES: readonly ServerName[] = ['host', ...REMOTE_NAMES, 'api'];

/** The host on BASE, the API on BASE + 4, each remote as far from BASE as its default port is from 3000. */
export const TEST_PORTS = {
  host: BASE,
  ...Object.fromEntries(REMOTE_NAMES.map((name) => [name, BASE + REMOTES[name].port - 3000])),
  api: BASE + 4,
} as Readonly<Record<ServerName, number>>;

/** The ports for third-party stand-ins: the first, BASE + 10, then the next ones. */
export function standInPort(index = 0): number {
  if (index < 0 || index >= FREE_PORTS_OFFSET - 10) throw new Error(`no stand-in port number ${index}`);
  return BASE + 10 + index;
}

export function originOf(name: ServerName): string {
  return `http://localhost:${TEST_PORTS[name]}`;
}

export const HOST_ORIGIN = originOf('host');

/** Where the host's runtime configuration points for a remote. */
export function manifestUrlOf(remote: RemoteName): string {
  return `${originOf(remote)}/mf-manifest.json`;
}

/** A valid gift or redeem id: 24 characters of [A-Za-z0-9_-]. */
export const VALID_ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * `--lcp-budget-ms` for the suite's gate and release runs. The gate's default (4 s) is a verdict on
 * a build's speed on an operator's machine; beside the suite's other workers a page's LCP has been
 * 5 s, so these runs, which test what the gate and a release do with a build, allow what a loaded
 * machine takes. The budget's refusal is tested apart (deploy/gate.test.ts).
 */
export const GATE_LCP_BUDGET_ARGS: readonly string[] = ['--lcp-budget-ms', '30000'];

/**
 * The browser of the suite's gate and release runs: the one the tests drive (testbed/chromium),
 * where an operator's run opens the full browser.
 */
export const GATE_BROWSER_ENV: Readonly<Record<string, string>> = { CHROMIUM_PATH: TEST_CHROMIUM_PATH };
