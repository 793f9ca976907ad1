/**
 * `npm run bench -w api` (`-- --quick` for a short smoke run, `-- --connections N` for N
 * connections in the saturation sections instead of 10, `-- --cpu-prof DIR` for section 1 alone
 * with its servers' CPU profiles): where the API's time goes.
 *
 * Starts a throwaway PostgreSQL cluster, the API on PGlite and on PostgreSQL (each its own
 * process, LOG_LEVEL=info, output drained through a pipe, reading the parts' builds from a
 * server of the bench's, parts.ts) and a bare Fastify server, then:
 *   1. saturation throughput of GET gift, interleaved rounds, as ratios to bare Fastify;
 *   2. latency of GET gift at a fixed rate;
 *   3. the same reads while plays are written;
 *   4. completions on two API processes sharing one database, checked for exactly-once
 *      (exit code 1 when violated);
 *   5. telemetry batches per second from many clients, on PostgreSQL;
 *   6. pgbench -S on the same cluster, for reference.
 * Everything started is stopped at the end, also on failure and on Ctrl-C.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from 'testbed/free-port';
import { killProcesses } from 'testbed/process';
import { CONSOLE, defineCommand, refuse, type CommandLine } from '../../deploy/command-line';
import { raceCompletions } from './completions';
import { describeCpu, measureCpu } from './cpu';
import { sharedAgent } from './http';
import { abortLoads } from './load';
import { findPgbench, runPgbench } from './pgbench';
import { describeProfile, mainThreadProfile } from './profile';
import { heading, note, rps, statuses, table } from './report';
import { fixedRate, readsDuringWrites } from './latency';
import { type Parts, startParts } from './parts';
import {
  createWorkspace,
  type Postgres,
  type Server,
  startApi,
  startBare,
  startPostgres,
  type Workspace,
} from './servers';
import { type Settings, type Target, wonGift } from './target';
import { telemetryIngest } from './telemetry';
import { throughput } from './throughput';

const USAGE = `Usage: npm run bench -w api -- [--quick] [--connections N] [--cpu-prof DIR]

  --quick           a short smoke run
  --connections N   autocannon's connections in the saturation sections (default 10)
  --cpu-prof DIR    section 1 only, each server writing CPU profiles into DIR/bare,
                    DIR/pglite and DIR/postgresql; then where each one's main thread
                    spent its CPU, by package and by folder of ours
  -h, --help        this text

Exits 1 when completions were not exactly once.`;

const OPTIONS = {
  quick: { type: 'boolean' },
  connections: { type: 'string' },
  'cpu-prof': { type: 'string' },
} as const;

const WATCHDOG_MS = 9 * 60 * 1000;

/** How long and how hard each section runs. */
interface RunSettings {
  quick: boolean;
  settings: Settings;
  completionGifts: number;
  pgbenchSeconds: number;
  /** `--cpu-prof`: section 1 only, profiled into this folder. */
  profileDir?: string;
}

function runSettings({ values, positionals }: CommandLine<typeof OPTIONS>): RunSettings {
  if (positionals.length > 0) refuse(`unexpected argument ${positionals[0]}`);
  const connections = values.connections === undefined ? 10 : Number(values.connections);
  if (!Number.isInteger(connections) || connections < 1)
    refuse(`--connections needs a whole number, got ${values.connections}`);
  const quick = values.quick === true;
  const common = { connections, warmupSeconds: 1, fixedRate: 500, writeRate: 50 };
  const settings: Settings = quick
    ? { ...common, rounds: 1, saturationSeconds: 2, latencyRounds: 1, fixedSeconds: 2 }
    : { ...common, rounds: 4, saturationSeconds: 5, latencyRounds: 3, fixedSeconds: 4 };
  const profileDir = values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']);
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });
  return {
    quick,
    settings,
    completionGifts: quick ? 60 : 400,
    pgbenchSeconds: quick ? 1 : 4,
    ...(profileDir === undefined ? {} : { profileDir }),
  };
}

const API_DATABASE = 'bench_api';

/** High enough never to refuse the bench's requests, which all come from 127.0.0.1. */
const NO_LIMITS = {
  PLAYS_PER_VISITOR_PER_DAY: '1000000',
  PLAYS_PER_IP_PER_DAY: '1000000',
  REDEEM_ATTEMPTS_PER_IP_PER_MINUTE: '1000000',
  REDEEM_OPENS_PER_IP_PER_MINUTE: '1000000',
};

let workspace: Workspace | undefined;
let postgres: Postgres | undefined;
let parts: Parts | undefined;
const servers: Server[] = [];

async function stopServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
}

async function cleanUp(): Promise<void> {
  abortLoads();
  await stopServers();
  await parts?.close();
  await postgres?.cluster.stop();
  workspace?.remove();
  sharedAgent.destroy();
}

function cleanUpSync(): void {
  killProcesses();
  postgres?.cluster.stopSync();
  workspace?.remove();
}

/** Runs a section, then says how busy the machine was meanwhile (the machine is shared). */
async function section<T>(work: () => Promise<T>): Promise<T> {
  const measured = measureCpu(postgres ? new URL(postgres.cluster.url).port : undefined);
  const result = await work();
  if (measured) note(describeCpu(measured()));
  return result;
}

async function completionSection(url: string, common: Record<string, string>, gifts: number): Promise<boolean> {
  heading(
    `4. Completions on 2 API processes sharing one PostgreSQL database (${gifts} gifts, 16 concurrent requests, duplicates included)`,
  );
  const env = { ...common, DATABASE_URL: url, GAME_WIN_RATE: '1' };
  const apis = await Promise.all([1, 2].map((n) => startApi(`API process ${n}`, env)));
  servers.push(...apis);
  const [first, second] = apis;
  if (!first || !second) throw new Error('two API processes expected');
  const report = await raceCompletions([first, second], url, { gifts, concurrency: 16 });
  note(
    `setup: ${report.gifts} gifts at ${rps(report.playsPerSecond)} plays/s, sessions opened at ${rps(report.opensPerSecond)}/s`,
  );
  note(
    `completions: ${report.requests} requests at ${rps(report.completionsPerSecond)}/s (${statuses(report.statuses)})`,
  );
  note(`races: ${report.rivals} gifts had a second visitor's session, which won ${report.rivalWins} of them`);
  if (report.problems.length === 0)
    note(
      'exactly-once: OK (one completed session per gift, every 200 voucher = the stored one, repeats got the same voucher)',
    );
  else for (const problem of report.problems) note(`EXACTLY-ONCE VIOLATED: ${problem}`);
  await stopServers();
  return report.problems.length === 0;
}

async function telemetrySection(url: string, common: Record<string, string>, settings: Settings): Promise<void> {
  const current = parts;
  if (!current) throw new Error('the parts’ builds are not served');
  const metricsPort = await freePort();
  // The bench's requests come from loopback, where it sets X-Forwarded-For as a proxy would.
  const api = await startApi('PostgreSQL (telemetry)', {
    ...common,
    DATABASE_URL: url,
    TRUST_PROXY: '127.0.0.1',
    METRICS_PORT: String(metricsPort),
  });
  servers.push(api);
  await telemetryIngest(api, `http://127.0.0.1:${metricsPort}/metrics`, current, settings);
  await stopServers();
}

async function pgbenchSection(pg: Postgres, seconds: number): Promise<void> {
  const binary = findPgbench();
  heading('6. pgbench -S on the same cluster (reference), 10 clients');
  if (!binary) return note('pgbench not found in /usr/lib/postgresql/*/bin: skipped');
  const runs = await runPgbench(binary, await pg.createDatabase('bench_pgbench'), {
    clients: 10,
    seconds,
  });
  console.log(
    table(
      ['protocol (-M)', 'tps'],
      runs.map((run) => [run.mode, rps(run.tps)]),
    ),
  );
}

/** Node's flags for a server that writes its CPU profiles into `dir`/`name` at its exit (one per thread). */
function profiling(dir: string | undefined, name: string): string[] | undefined {
  return dir === undefined ? undefined : ['--cpu-prof', '--cpu-prof-dir', join(dir, name)];
}

/** `--cpu-prof`: the servers stopped, so their profiles are written; then where each spent its CPU. */
async function reportProfiles(dir: string, profiled: Record<string, Server>): Promise<void> {
  await stopServers();
  heading("Where each server's main thread spent its CPU in section 1 (self time, idle left out)");
  note(
    "each profile is the process's whole life: its start (tsx compiling its source) and the bench's set-up requests too; section 1's figures above were taken with every server profiled: quote those of a run without --cpu-prof",
  );
  for (const [name, server] of Object.entries(profiled)) {
    for (const line of describeProfile(server.name, mainThreadProfile(join(dir, name), server.pid))) console.log(line);
  }
}

async function main({ quick, settings, completionGifts, pgbenchSeconds, profileDir }: RunSettings): Promise<number> {
  const started = performance.now();
  watchSignals();
  const [load1, load5] = loadavg();
  console.log(
    `api bench${quick ? ' (--quick)' : ''}: Node ${process.version}, pid ${process.pid}, ${cpus().length} cores, load average ${load1?.toFixed(2)} (1 min), ${load5?.toFixed(2)} (5 min)`,
  );
  workspace = createWorkspace();
  parts = await startParts();
  postgres = await startPostgres();
  const apiUrl = await postgres.createDatabase(API_DATABASE);
  const twoUrl = await postgres.createDatabase('bench_two');

  // Every API process signs the visitor cookie with one secret, as a deployment's do: a cookie one
  // process set is good on the other (section 4 alternates them).
  const common = {
    ...NO_LIMITS,
    ...parts.env,
    PRIZE_CATALOGUE_FILE: workspace.catalogueFile,
    VISITOR_COOKIE_SECRETS: randomBytes(32).toString('base64url'),
    PAGE_TICKET_SECRETS: randomBytes(32).toString('base64url'),
  };
  const [pglite, pg] = await Promise.all([
    startApi('PGlite', { ...common, PGLITE_DATA_DIR: join(workspace.dir, 'pglite') }, profiling(profileDir, 'pglite')),
    startApi('PostgreSQL', { ...common, DATABASE_URL: apiUrl }, profiling(profileDir, 'postgresql')),
  ]);
  servers.push(pglite, pg);
  const [pgliteGift, pgGift] = [await wonGift(pglite), await wonGift(pg)];
  const bare = await startBare(pgliteGift.body, profiling(profileDir, 'bare'));
  servers.push(bare);
  note(
    `servers: bare pid ${bare.pid}, PGlite API pid ${pglite.pid}, PostgreSQL API pid ${pg.pid} (pool 10); ${postgres.cluster.url.replace(/\/postgres$/, '')}`,
  );

  const bareTarget: Target = { label: 'bare', server: bare, giftPath: pgliteGift.path };
  const apis: [Target, Target] = [
    { label: 'PGlite', server: pglite, giftPath: pgliteGift.path },
    { label: 'PostgreSQL', server: pg, giftPath: pgGift.path, database: API_DATABASE },
  ];
  const postgresPort = new URL(postgres.cluster.url).port;
  await section(() => throughput(bareTarget, apis, settings, () => measureCpu(postgresPort)));
  if (profileDir !== undefined) {
    await reportProfiles(profileDir, { bare, pglite, postgresql: pg });
    return 0;
  }
  await section(() => fixedRate([bareTarget, ...apis], settings));
  await section(() => readsDuringWrites(apis, settings));
  await stopServers();

  const exactlyOnce = await section(() => completionSection(twoUrl, common, completionGifts));
  await section(() => telemetrySection(apiUrl, common, settings));
  const cluster = postgres;
  await section(() => pgbenchSection(cluster, pgbenchSeconds));
  console.log(`\ntotal wall time ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return exactlyOnce ? 0 : 1;
}

let interrupted = false;
const interrupt = (signal: NodeJS.Signals) => {
  if (interrupted) {
    cleanUpSync();
    process.exit(130);
  }
  interrupted = true;
  console.error(`\n${signal}: stopping everything the bench started…`);
  cleanUp().finally(() => process.exit(130));
};

/** Everything started is stopped on Ctrl-C, at exit, and when the run outlasts the watchdog. */
function watchSignals(): void {
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  process.on('exit', cleanUpSync);
  setTimeout(() => {
    console.error(`the bench ran longer than ${WATCHDOG_MS / 60_000} minutes: stopping`);
    cleanUp().finally(() => process.exit(1));
  }, WATCHDOG_MS).unref();
}

const command = defineCommand({
  name: 'bench:api',
  summary: "where the API's time goes",
  usage: USAGE,
  options: OPTIONS,
  run: (line) => main(runSettings(line)),
});

command.main(process.argv.slice(2), CONSOLE).then(
  async (code) => {
    await cleanUp();
    process.exit(code);
  },
  async (error: unknown) => {
    console.error('bench failed:', error);
    await cleanUp().catch(() => undefined);
    process.exit(1);
  },
);
