/**
 * Starts the production servers (host, three remotes, API) as separate processes on the
 * worker's ports, as a deploy runs them: plain node on each part's compiled server (`npm run
 * build`'s output). A worker runs file after file on one set of servers: before a file's first
 * hook or test, `useServerSet` makes the set what the file asked for (fixtures.ts), restarting
 * only the servers that differ, so whatever the previous file changed is undone there. Stops or
 * restarts any one of them (an outage, a redeploy) in a file that asked for servers of its own. Each is started, awaited and stopped by testbed/process,
 * under its process guard in its own process group, so stopping, a crash of the worker or
 * Ctrl-C leaves no server behind. Output goes to the worker's `logs/<name>.log` (test-env.ts),
 * each start and exit marked in it.
 */
import { appendFileSync, cpSync, mkdirSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { test } from '@playwright/test';
import { REMOTES } from 'shared/remotes';
import { isPortInUse, waitForPortFree } from 'testbed/free-port';
import { startProcess, stopProcess, waitUntilHealthy, type RunningProcess } from 'testbed/process';
import { topologyEnv, type TopologySecrets } from 'testbed/topology-env';
import { prepareApiData } from './api-data';
import { planServerSet, type EnvOverrides, type ServerSetOptions, type StartOptions } from './server-plan';
import {
  API_DATA_DIR,
  HOST_ORIGIN,
  LOG_DIR,
  REMOTE_NAMES,
  ROOT_DIR,
  SERVER_NAMES,
  TEST_PORTS,
  TMP_DIR,
  manifestUrlOf,
  originOf,
  type ServerName,
} from './test-env';

interface ServerSpec {
  packageDir: string;
  /** The compiled server, relative to the package. */
  bundle: string;
  /** The health route: 200 once the server is listening and serving its build. */
  readyPath: string;
}

const SPECS = {
  host: { packageDir: 'host', bundle: 'dist-server/main.js', readyPath: '/healthz' },
  ...Object.fromEntries(
    REMOTE_NAMES.map((name) => [
      name,
      { packageDir: REMOTES[name].packageDir, bundle: 'dist-server/main.js', readyPath: '/healthz' },
    ]),
  ),
  api: { packageDir: 'api', bundle: 'dist/index.js', readyPath: '/api/health' },
} as Record<ServerName, ServerSpec>;

// The API starts a whole PostgreSQL (PGlite): on a loaded two-core machine that can take long.
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 8_000;
const START_MARK = '=== e2e';
const SUITE_SECRETS: TopologySecrets = {
  visitorCookie: 'e2e-visitor-cookie-secret-for-tests-only',
  pageTicket: 'e2e-page-ticket-secret-for-tests-only-0123',
};

export interface RunningServer {
  name: ServerName;
  port: number;
  origin: string;
  pid: number;
  logFile: string;
  env: EnvOverrides;
  /** The folder it runs from when not its package's (`StartOptions.packageDir`). */
  packageDir?: string;
  /** The exit code, or the signal's 128 + n; resolves when the process group leader exits. */
  exited: Promise<number>;
  hasExited(): boolean;
  process: RunningProcess;
}

/** The default: every server with the suite's settings, for a file that changes none of them. */
export const SHARED_SERVERS: ServerSetOptions = Object.freeze({});

/** True while the file running asked for the default servers: it may not change them. */
let shared = false;

function assertChangeable(action: string): void {
  // Changes before the set was made for the file would be undone under it (fixtures.ts).
  const file = test.info().file;
  if (current?.file !== file) {
    throw new Error(`${action}: the worker's servers are not yet set up for ${relative(ROOT_DIR, file)}`);
  }
  if (!shared) return;
  throw new Error(
    `${action}: this file runs on the suite's default servers, which it may not change; a file that ` +
      'changes its servers says so with test.use({ serverOptions: { … } }) at its top (support/fixtures.ts)',
  );
}

const running = new Map<ServerName, RunningServer>();
/** The overrides each server last started with, for a restart after it stopped or crashed. */
const lastEnv = new Map<ServerName, EnvOverrides>();

/** Variables the servers read: the test ports and the runtime configuration pointing at them. */
export function baseServerEnv(): Record<string, string> {
  return {
    ...topologyEnv({
      ports: TEST_PORTS,
      manifestUrl: manifestUrlOf,
      hostOrigin: HOST_ORIGIN,
      apiBaseUrl: originOf('api'),
      // HOST_ORIGIN is set, as in production: the API needs its cookie's secret, and the API checks
      // the telemetry tickets the host's server signs.
      secrets: SUITE_SECRETS,
      openLimits: true,
    }),
    // The API's own embedded database for the run.
    PGLITE_DATA_DIR: API_DATA_DIR,
    // The host's longest wait for a page's data, at its maximum: the gift and redeem pages are
    // checked with what the API answered, not against the machine's speed (on a busy two-core run
    // the API's answer can take longer than production's 400 ms, and the page then comes rendered
    // in the browser, a 200). The bound itself is tested against a late server in
    // host/server/host-handler-data-pages.test.ts, and with PAGE_DATA_TIMEOUT_MS=0 by the fault specs.
    PAGE_DATA_TIMEOUT_MS: '10000',
  };
}

/**
 * Overrides that leave the runtime configuration to its defaults, as `npm start` runs it: only
 * the ports are moved, no origin or URL is named (the development default follows the address
 * the page was opened at).
 */
export const DEFAULT_CONFIGURATION: EnvOverrides = {
  HOST_ORIGIN: undefined,
  API_BASE_URL: undefined,
  ...Object.fromEntries(REMOTE_NAMES.map((name) => [REMOTES[name].urlEnv, undefined])),
};

export type { EnvOverrides, ServerSetOptions, StartOptions };

function serverEnv(overrides: EnvOverrides): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...baseServerEnv() };
  // A developer's own settings must not leak into the served configuration.
  delete env.RUNTIME_CONFIG_FILE;
  delete env.BUILD_CHECK_INTERVAL_MS;
  delete env.REMOTE_TIMEOUT_MS;
  delete env.DATABASE_URL;
  delete env.PRIZE_CATALOGUE_FILE;
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/**
 * A copy of a part's builds (`dist` and `dist-server`) in a fresh folder of this worker's, to run
 * it from with `packageDir` when a test changes its built files: other workers serve the
 * package's own. Its packages are still found: the folder is inside the repository.
 */
export function copyPartBuild(name: ServerName): string {
  const source = join(ROOT_DIR, SPECS[name].packageDir);
  const target = join(TMP_DIR, 'parts', `${name}-${Date.now().toString(36)}`);
  for (const folder of ['dist', 'dist-server']) cpSync(join(source, folder), join(target, folder), { recursive: true });
  return target;
}

export function logFileOf(name: ServerName): string {
  return join(LOG_DIR, `${name}.log`);
}

/**
 * Starts one server and waits until it serves. Fails if the port is taken (a server of ours
 * still running, or anyone else's) or if the process exits first, with the log's tail.
 */
export function startServer(name: ServerName, options: StartOptions = {}): Promise<RunningServer> {
  assertChangeable(`starting the ${name} server`);
  return launch(name, options);
}

async function launch(name: ServerName, options: StartOptions): Promise<RunningServer> {
  if (running.has(name)) throw new Error(`${name} server is already running (pid ${running.get(name)?.pid})`);
  const port = TEST_PORTS[name];
  if (await isPortInUse(port)) {
    throw new Error(
      `port ${port} for the ${name} server is already in use; stop whatever listens there or set E2E_BASE_PORT`,
    );
  }
  const spec = SPECS[name];
  const overrides = options.env ?? {};
  lastEnv.set(name, overrides);
  const settings = Object.keys(overrides).length ? ` with ${JSON.stringify(overrides)}` : '';
  const logFile = logFileOf(name);
  const env = serverEnv(overrides);
  // A PGlite data folder not made yet (the worker's own, or a file's fresh one) starts as the
  // run's initialised cluster (api-data.ts).
  const dataDir = env.PGLITE_DATA_DIR;
  if (name === 'api' && dataDir && isAbsolute(dataDir) && !env.DATABASE_URL) await prepareApiData(dataDir);
  const started = startProcess({
    name: `${name} server`,
    command: process.execPath,
    args: ['--enable-source-maps', spec.bundle],
    cwd: options.packageDir ?? join(ROOT_DIR, spec.packageDir),
    env,
    output: {
      file: logFile,
      append: true,
      header: `\n${START_MARK} ${new Date().toISOString()} starting ${name} on port ${port}${settings}\n`,
    },
    exitWithParent: true,
    stopTimeoutMs: STOP_TIMEOUT_MS,
    onExit: (code, signal) => {
      appendFileSync(
        logFile,
        `${START_MARK} ${new Date().toISOString()} ${name} exited (${signal ?? `code ${code}`})\n`,
      );
      if (running.get(name)?.process === started) running.delete(name);
    },
  });
  if (started.pid === -1) throw new Error(`${name} server could not be spawned:\n${started.tail()}`);
  const server: RunningServer = {
    name,
    port,
    origin: originOf(name),
    pid: started.pid,
    logFile,
    env: overrides,
    packageDir: options.packageDir,
    exited: started.exited,
    hasExited: started.hasExited,
    process: started,
  };
  running.set(name, server);
  if (options.noWait) return server;
  try {
    await waitUntilHealthy(started, `${server.origin}${spec.readyPath}`, { timeoutMs: READY_TIMEOUT_MS });
  } catch (error) {
    await halt(name, {});
    throw error;
  }
  return server;
}

export interface StopOptions {
  /** SIGKILL at once, like a crash, instead of a graceful SIGTERM. */
  hard?: boolean;
}

/** Stops one server and waits until its process group is gone and its port is free. */
export function stopServer(name: ServerName, options: StopOptions = {}): Promise<void> {
  assertChangeable(`stopping the ${name} server`);
  return halt(name, options);
}

async function halt(name: ServerName, options: StopOptions): Promise<void> {
  const server = running.get(name);
  if (!server) return;
  await stopProcess(server.process, { hard: options.hard });
  running.delete(name);
  if (!(await waitForPortFree(server.port, STOP_TIMEOUT_MS))) {
    throw new Error(`port ${server.port} still in use after stopping the ${name} server`);
  }
}

/**
 * Stops (if running) and starts one server; the environment overrides it last started with
 * apply unless new ones are given.
 */
export async function restartServer(name: ServerName, options: StartOptions = {}): Promise<RunningServer> {
  assertChangeable(`restarting the ${name} server`);
  await halt(name, {});
  return launch(name, { ...options, env: options.env ?? lastEnv.get(name) ?? {} });
}

/** The file the worker's servers were last made ready for, and what it asked for. */
let current: { file: string; options: ServerSetOptions } | undefined;

/**
 * Makes the worker's servers what the test file `file` asked for (fixtures.ts), once, before its
 * first hook or test: a server that runs with other settings, from another folder, or is not
 * wanted is stopped; a wanted one that does not run is started (all in parallel). What the
 * previous file changed and left so is restored here; the log `logs/server-set.log` says what
 * each file found changed and how long its servers took.
 */
export async function useServerSet(file: string, options: ServerSetOptions): Promise<void> {
  if (current?.file === file) {
    if (isDeepStrictEqual(current.options, options)) return;
    throw new Error(
      `${relative(ROOT_DIR, file)} asks for other servers in a group than at its top: serverOptions ` +
        'apply to a whole file, set once with test.use at its top (support/fixtures.ts)',
    );
  }
  current = undefined;
  shared = false;
  const started = Date.now();
  const settings = options.servers ?? {};
  const plan = planServerSet([...running.values()], options);
  await Promise.all(plan.stop.map((name) => halt(name, {})));
  lastEnv.clear();
  await startServers(plan.start, settings);
  for (const name of options.only ?? SERVER_NAMES) lastEnv.set(name, settings[name]?.env ?? {});
  current = { file, options };
  shared = options === SHARED_SERVERS;
  mkdirSync(LOG_DIR, { recursive: true });
  appendFileSync(
    join(LOG_DIR, 'server-set.log'),
    `${new Date().toISOString()} ${relative(ROOT_DIR, file)}: stopped [${plan.stop.join(', ')}], ` +
      `started [${plan.start.join(', ')}] in ${Date.now() - started} ms\n`,
  );
}

/** Stops every server of the worker: the end of the worker. */
export async function stopServerSet(): Promise<void> {
  current = undefined;
  shared = false;
  await stopAllServers();
}

async function startServers(
  names: readonly ServerName[],
  options: Partial<Record<ServerName, StartOptions>>,
): Promise<RunningServer[]> {
  // The host after the rest, as a deploy starts it: it reads each remote's build as it starts, and
  // a remote not yet listening then leaves its pages without their prerendered text until the
  // host's next read, which a page loaded at once (a test's first) would meet.
  const first = names.filter((name) => name !== 'host');
  const results = await Promise.allSettled(first.map((name) => launch(name, options[name] ?? {})));
  if (names.includes('host') && !results.some((result) => result.status === 'rejected')) {
    results.push(...(await Promise.allSettled([launch('host', options.host ?? {})])));
  }
  const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failures.length > 0) {
    await stopAllServers();
    throw new Error(
      failures.map((failure) => String((failure.reason as Error).message ?? failure.reason)).join('\n\n'),
    );
  }
  return results.map((result) => (result as PromiseFulfilledResult<RunningServer>).value);
}

async function stopAllServers(): Promise<void> {
  await Promise.all([...running.keys()].map((name) => halt(name, {})));
}

export function runningServer(name: ServerName): RunningServer | undefined {
  return running.get(name);
}
