/**
 * A chaos run: the production topology (nginx, the host's server, the remotes' deployed folders,
 * API processes on one PostgreSQL) under a steady load of simulated visitors and a few real
 * Chromium visitors, with a fault about every half minute from a seeded schedule. At the end it
 * checks, against the API and the database, that nothing acknowledged was lost, and says what
 * visitors saw and how long each kind of fault took to recover from. A fault's window runs from
 * its start until the system answers normally again, plus GRACE_MS; visitors may see errors
 * inside one, never outside.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from 'testbed/chromium';
import { findPostgresBinaries } from 'testbed/postgres';
import { percentile } from 'testbed/stats';
import { raisedStockCatalogue } from '../support/catalogue';
import { nextContentBuild, readLatest } from '../support/redeploy';
import { deployRemote, startTopology, type Topology } from '../support/topology';
import { REMOTE_NAMES, ROOT_DIR, TMP_DIR, type RemoteName } from '../support/test-env';
import { RELOAD_LOOP_THRESHOLD, runBrowserVisitor, type BrowserJourney } from './browsers';
import { FaultMaker, OUT_OF_ROTATION_LIMIT_MS, type FaultResult, type RemoteBuilds } from './faults';
import { emptyRecords, runLoad, SLOW_MS, type LoadRecords } from './load';
import { measureMemory, type Measured } from './memory';
import { describeFault, describeSchedule, FAULT_KINDS, planFaults, type FaultKind } from './schedule';

const run = promisify(execFile);

export interface ChaosOptions {
  minutes: number;
  seed: number;
  apiCount?: number;
  /** New simulated visitors a second, each on the whole journey. */
  journeysPerSecond?: number;
  /** Real Chromium visitors, and their pause between journeys. */
  browsers?: number;
  browserPauseMs?: number;
  /** About how often a fault comes, and when the first one does. */
  faultEveryMs?: number;
  firstFaultAtMs?: number;
  /** The kinds drawn from (every kind by default). */
  kinds?: readonly FaultKind[];
  /** The browser to use (the test's); one is launched otherwise. */
  browser?: Browser;
  /** Where progress goes as it happens. */
  log?: (line: string) => void;
}

export interface ChaosReport {
  /** The report as printed. */
  text: string;
  /** Each check that failed, in words; empty when nothing was lost. */
  failures: string[];
  requests: number;
  journeys: number;
  browserJourneys: number;
  errorsOutsideWindows: number;
  winsLost: number;
  completionsLost: number;
  vouchersLost: number;
  giftsWithTwoVouchers: number;
  reloadLoops: number;
  faults: FaultResult[];
}

/** After a fault's recovery, how long visitors may still see its effects. */
export const GRACE_MS = 5_000;
/** The remote whose deploys and rollbacks switch between two builds: the content remote has a second one. */
const REDEPLOYED: RemoteName = 'content';
/** Enough of every prize that ten minutes of plays never run out. */
const CHAOS_STOCK = 1_000_000;
const MB = 1024 * 1024;

/** The limits set high, as the topology does for plays: the load is many visitors, not abuse. */
function apiEnv(catalogue: string): Record<string, string> {
  return {
    PRIZE_CATALOGUE_FILE: catalogue,
    PLAYS_PER_IP_PER_DAY: '1000000',
    REDEEM_ATTEMPTS_PER_IP_PER_MINUTE: '100000',
    REDEEM_OPENS_PER_IP_PER_MINUTE: '100000',
    UNKNOWN_REDEEM_READS_PER_IP_PER_MINUTE: '100000',
  };
}

/** psql on the run's cluster: the rows of a query, each split on `|`. */
async function sql(topology: Topology, query: string): Promise<string[][]> {
  const bin = dirname(findPostgresBinaries().pgCtl);
  const psql = existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
  const { stdout } = await run(psql, [topology.database.url, '-At', '-F', '|', '-c', query], {
    maxBuffer: 256 * MB,
  });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('|'));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Window {
  from: number;
  to: number;
}

function inWindow(windows: readonly Window[], from: number, to: number): boolean {
  return windows.some((window) => from <= window.to && to >= window.from);
}

/** Reads every acknowledged voucher back through the API as its visitor; the ones missing or different. */
async function readVouchersBack(origin: string, records: LoadRecords): Promise<string[]> {
  const lost: string[] = [];
  const queue = [...records.completions];
  const worker = async () => {
    for (let completion = queue.shift(); completion; completion = queue.shift()) {
      const response = await fetch(`${origin}/api/redeems/${completion.redeemId}`, {
        headers: { accept: 'application/json', cookie: completion.cookie, 'x-forwarded-for': completion.forwardedFor },
        signal: AbortSignal.timeout(10_000),
      }).catch((error: Error) => error);
      if (response instanceof Error) {
        lost.push(`${completion.redeemId}: ${response.message}`);
        continue;
      }
      const body = (await response.json().catch(() => ({}))) as { status?: string; voucherCode?: string };
      if (response.status !== 200 || body.status !== 'completed' || body.voucherCode !== completion.voucherCode)
        lost.push(
          `${completion.redeemId}: HTTP ${response.status}, ${body.status}, ${body.voucherCode} (acknowledged ${completion.voucherCode})`,
        );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return lost;
}

/** Starts everything, runs the load and the faults, checks, stops everything, and reports. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? ((line: string) => console.log(line));
  const apiCount = options.apiCount ?? 3;
  const durationMs = Math.round(options.minutes * 60_000);
  const journeysPerSecond = options.journeysPerSecond ?? 4;
  const browserCount = options.browsers ?? 2;
  const browserPauseMs = options.browserPauseMs ?? 1_000;
  const plan = planFaults({
    seed: options.seed,
    durationMs,
    intervalMs: options.faultEveryMs ?? 30_000,
    firstAtMs: options.firstFaultAtMs ?? 15_000,
    kinds: options.kinds ?? FAULT_KINDS,
    apiCount,
    remotes: REMOTE_NAMES,
    redeployedRemote: REDEPLOYED,
  });
  log(describeSchedule(plan, options.seed));
  const switchesBuilds = plan.some((fault) => fault.kind === 'remote-redeploy' || fault.kind === 'remote-rollback');

  const dir = join(TMP_DIR, 'chaos');
  const started = Date.now();
  const [topology, secondBuild] = await Promise.all([
    // PostgreSQL as durable as in production: an immediate stop loses no acknowledged commit.
    startTopology({ apiCount, apiEnv: apiEnv(raisedStockCatalogue(dir, CHAOS_STOCK)), durableDatabase: true }),
    switchesBuilds ? nextContentBuild() : undefined,
  ]);
  const launched = options.browser
    ? undefined
    : await chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  const browser = options.browser ?? (launched as Browser);
  try {
    const redeployed: RemoteBuilds = { remote: REDEPLOYED, builds: [] };
    const folder = topology.remoteFolder(REDEPLOYED);
    if (secondBuild) {
      // The main build copied aside (a build of the repository meanwhile must not change it), then
      // both builds deployed once, the main one current: a rollback may then name either.
      const main = join(dir, 'content-main');
      rmSync(main, { recursive: true, force: true });
      cpSync(join(ROOT_DIR, 'remote-content', 'dist'), main, { recursive: true });
      await deployRemote(REDEPLOYED, folder, secondBuild.dir);
      await deployRemote(REDEPLOYED, folder, main);
      redeployed.builds = [
        { dir: main, id: readLatest(main).id },
        { dir: secondBuild.dir, id: secondBuild.info.id },
      ];
    }
    const currentBuilds = new Map(REMOTE_NAMES.map((remote) => [remote, readLatest(topology.remoteFolder(remote)).id]));
    const faults = new FaultMaker(topology, redeployed, currentBuilds);
    log(`topology ready in ${seconds(Date.now() - started)}: nginx ${topology.origin}, ${apiCount} API processes`);

    const measured: Measured[] = [
      { name: 'nginx', pid: topology.nginx.pid, scope: 'children' },
      { name: 'host server', pid: topology.host.pid, scope: 'children' },
      ...topology.apis.map((api, index): Measured => ({ name: `api-${index + 1}`, pid: api.pid, scope: 'children' })),
      { name: 'postgresql', postgresPort: Number(new URL(topology.database.url).port) },
      { name: 'chromium', chromiumUnder: process.pid },
      { name: 'harness', self: true },
    ];
    const stop = new AbortController();
    const records = emptyRecords();
    const journeys: BrowserJourney[] = [];
    const loadStart = Date.now();
    const load = runLoad({ origin: topology.origin, journeysPerSecond }, records, stop.signal);
    const visitors = Array.from({ length: browserCount }, (_, index) =>
      runBrowserVisitor(browser, topology.origin, index + 1, browserPauseMs, journeys, stop.signal),
    );
    // Memory at the start: once the load and the visitors have warmed every process up.
    await delay(Math.min(5_000, (options.firstFaultAtMs ?? 15_000) / 2));
    const memoryAtStart = measureMemory(measured);

    const results: FaultResult[] = [];
    let readyAt = loadStart;
    for (const planned of plan) {
      const due = Math.max(loadStart + planned.atMs, readyAt);
      await delay(Math.max(0, due - Date.now()));
      log(`${seconds(Date.now() - loadStart)}: fault #${planned.number} of ${plan.length}, ${describeFault(planned)}…`);
      const result = await faults.make(planned);
      results.push(result);
      readyAt = (result.recoveredAt ?? Date.now()) + GRACE_MS;
      log(
        `  ${result.detail}: ${result.error ? `failed: ${result.error}` : result.recoveredAt ? `recovered in ${seconds(result.recoveredAt - result.startedAt)}` : 'never recovered'}`,
      );
      if (result.error || !result.recoveredAt) break;
    }
    await delay(Math.max(0, loadStart + durationMs - Date.now(), readyAt - Date.now()));
    const memoryAtEnd = measureMemory(measured.map((group) => refreshPid(group, topology)));
    const restarted = restartedApis(measured, topology);
    stop.abort();
    await Promise.all([load, ...visitors]);
    const loadMs = Date.now() - loadStart;
    log(`load stopped after ${seconds(loadMs)}; checking`);

    return await check({
      topology,
      options: { ...options, apiCount, journeysPerSecond, browsers: browserCount },
      records,
      journeys,
      results,
      loadMs,
      memory: { names: measured.map((group) => group.name), start: memoryAtStart, end: memoryAtEnd, restarted },
    });
  } finally {
    await launched?.close().catch(() => undefined);
    await topology.stop();
  }
}

/** An API process restarted meanwhile is measured as the one running now. */
function refreshPid(group: Measured, topology: Topology): Measured {
  const match = /^api-(\d+)$/.exec(group.name);
  const api = match ? topology.apis[Number(match[1]) - 1] : undefined;
  return api ? { name: group.name, pid: api.pid, scope: 'children' } : group;
}

/** The API processes killed and started again during the run: their memory at the end is the new process's. */
function restartedApis(measured: readonly Measured[], topology: Topology): Set<string> {
  return new Set(
    measured.flatMap((group) => {
      const now = refreshPid(group, topology);
      return 'pid' in group && 'pid' in now && now.pid !== group.pid ? [group.name] : [];
    }),
  );
}

interface CheckInput {
  topology: Topology;
  options: ChaosOptions & { apiCount: number; journeysPerSecond: number; browsers: number };
  records: LoadRecords;
  journeys: BrowserJourney[];
  results: FaultResult[];
  loadMs: number;
  memory: { names: string[]; start: Map<string, number>; end: Map<string, number>; restarted: Set<string> };
}

async function check(input: CheckInput): Promise<ChaosReport> {
  const { topology, options, records, journeys, results } = input;
  const failures: string[] = [];
  const windows: Window[] = results.map((result) => ({
    from: result.startedAt,
    to: (result.recoveredAt ?? Number.MAX_SAFE_INTEGER) + GRACE_MS,
  }));

  // What visitors saw, inside and outside the faults' windows.
  const outside = records.failures.filter((failure) => !inWindow(windows, failure.startedAt, failure.endedAt));
  const badJourneys = journeys.filter((journey) => !journey.ok || journey.problems.length > 0);
  const badOutside = badJourneys.filter((journey) => !inWindow(windows, journey.startedAt, journey.endedAt));
  const errorsOutside = outside.length + badOutside.length;
  const errorsInside = records.failures.length - outside.length + badJourneys.length - badOutside.length;

  // Everything acknowledged, against the database and read back through the API.
  const giftRows = new Set((await sql(topology, 'SELECT id FROM gifts')).map(([id]) => id));
  const winsLost = [...records.wins].filter((id) => !giftRows.has(id));
  const completedRows = new Map(
    (await sql(topology, "SELECT id, gift_id, voucher_code FROM redeem_sessions WHERE status = 'completed'")).map(
      ([id, giftId, code]) => [id, { giftId, code }],
    ),
  );
  const completionsLost = records.completions.filter((completion) => {
    const row = completedRows.get(completion.redeemId);
    return !row || row.giftId !== completion.giftId || row.code !== completion.voucherCode;
  });
  const vouchersLost = [...(await readVouchersBack(topology.origin, records)), ...records.voucherMismatches];
  const doubled = await sql(
    topology,
    'SELECT gift_id, count(*) FROM redeem_sessions WHERE voucher_code IS NOT NULL GROUP BY gift_id HAVING count(*) > 1',
  );
  const reloads = journeys.reduce((sum, journey) => sum + journey.reloads, 0);
  const loops = journeys.filter((journey) => journey.reloads > RELOAD_LOOP_THRESHOLD);

  if (errorsOutside > 0) failures.push(`${errorsOutside} visitor-visible errors outside fault windows`);
  if (winsLost.length > 0)
    failures.push(`${winsLost.length} acknowledged wins lost: ${winsLost.slice(0, 5).join(', ')}`);
  if (completionsLost.length > 0)
    failures.push(
      `${completionsLost.length} acknowledged completions lost: ${completionsLost
        .slice(0, 5)
        .map((c) => c.redeemId)
        .join(', ')}`,
    );
  if (vouchersLost.length > 0)
    failures.push(`${vouchersLost.length} vouchers lost: ${vouchersLost.slice(0, 5).join('; ')}`);
  if (doubled.length > 0)
    failures.push(
      `${doubled.length} gifts with two vouchers: ${doubled
        .slice(0, 5)
        .map(([id]) => id)
        .join(', ')}`,
    );
  if (loops.length > 0) failures.push(`${loops.length} reload loops`);
  for (const result of results) {
    if (result.error) failures.push(`fault #${result.planned.number} ${result.detail} failed: ${result.error}`);
    else if (!result.recoveredAt) failures.push(`fault #${result.planned.number} ${result.detail}: never recovered`);
    if ((result.lastRequestAfterMs ?? 0) > OUT_OF_ROTATION_LIMIT_MS)
      failures.push(
        `fault #${result.planned.number} ${result.detail}: nginx still sent it requests ${seconds(result.lastRequestAfterMs ?? 0)} after it froze`,
      );
  }
  if (records.journeysDone === 0) failures.push('no simulated visitor reached a voucher');
  if (options.browsers > 0 && !journeys.some((journey) => journey.ok))
    failures.push('no browser visitor reached a voucher');

  const lines: string[] = [];
  const row = (label: string, value: string) => lines.push(`${label.padEnd(40)} ${value}`);
  lines.push(
    `chaos run: ${seconds(input.loadMs)} of load, seed ${options.seed}; nginx, the host's server, ${REMOTE_NAMES.length} remotes, ${options.apiCount} API processes on PostgreSQL`,
    `load: ${options.journeysPerSecond} new simulated visitors a second, each on the whole journey (${records.mostInFlight} at most in flight); ${options.browsers} Chromium visitors in a loop`,
    '',
  );
  row('requests (simulated visitors)', `${records.requests}`);
  row('journeys (simulated visitors)', `${records.journeysDone} done, ${records.journeysAbandoned} given up`);
  row(
    'journeys (Chromium visitors)',
    `${journeys.filter((journey) => journey.ok).length} done, ${journeys.filter((journey) => !journey.ok).length} failed`,
  );
  row('visitor-visible errors outside fault windows', `${errorsOutside} (inside: ${errorsInside})`);
  const slowOutside = records.slow.filter((slow) => !inWindow(windows, slow.startedAt, slow.endedAt));
  row(
    `answers slower than ${seconds(SLOW_MS)} outside fault windows`,
    `${slowOutside.length} (inside: ${records.slow.length - slowOutside.length})`,
  );
  row('acknowledged wins lost', `${winsLost.length} of ${records.wins.size}`);
  row('acknowledged completions lost', `${completionsLost.length} of ${records.completions.length}`);
  row('vouchers lost (all read back at the end)', `${vouchersLost.length} of ${records.completions.length}`);
  row('gifts with two vouchers (whole database)', `${doubled.length}`);
  row('reload loops', `${loops.length} (page reloads in all: ${reloads})`);
  lines.push('', 'recovery, from the fault until every part answers normally again:');
  const kinds = [...new Set(results.map((result) => result.planned.kind))];
  for (const kind of kinds) {
    const ofKind = results.filter((result) => result.planned.kind === kind && result.recoveredAt);
    const unrecovered = results.filter((result) => result.planned.kind === kind).length - ofKind.length;
    const times = ofKind.map((result) => (result.recoveredAt as number) - result.startedAt);
    const frozen = ofKind.filter((result) => result.lastRequestAfterMs !== undefined);
    const extra = frozen.length
      ? `; nginx's last request to the frozen process ${frozen.map((result) => seconds(result.lastRequestAfterMs ?? 0)).join(', ')} after it froze (limit ${seconds(OUT_OF_ROTATION_LIMIT_MS)}), ${frozen.map((result) => result.requestsWhileFrozen).join(', ')} requests sent to it while frozen`
      : '';
    lines.push(
      `  ${kind.padEnd(28)} ${String(times.length).padStart(2)}×  p50 ${seconds(percentile(times, 50) ?? 0)}  max ${seconds(Math.max(0, ...times))}${extra}${unrecovered ? `; ${unrecovered} never recovered` : ''}`,
    );
  }
  lines.push('', `memory (resident, MB)${' '.repeat(19)}start     end`);
  for (const name of input.memory.names) {
    const start = (input.memory.start.get(name) ?? 0) / MB;
    const end = (input.memory.end.get(name) ?? 0) / MB;
    const note = input.memory.restarted.has(name) ? '  (killed and started again: the new process)' : '';
    lines.push(`  ${name.padEnd(36)} ${start.toFixed(0).padStart(6)}  ${end.toFixed(0).padStart(6)}${note}`);
  }
  lines.push('');
  if (outside.length > 0)
    lines.push(
      'errors outside fault windows (first 10):',
      ...outside
        .slice(0, 10)
        .map(
          (failure) =>
            `  ${new Date(failure.startedAt).toISOString()} ${failure.step}: HTTP ${failure.status} ${failure.detail}`,
        ),
    );
  if (badOutside.length > 0)
    lines.push(
      'browser journeys with errors outside fault windows (first 5):',
      ...badOutside
        .slice(0, 5)
        .map(
          (journey) =>
            `  ${new Date(journey.startedAt).toISOString()} visitor ${journey.visitor}: ${journey.problems.slice(0, 3).join(' | ')}`,
        ),
    );
  lines.push(
    failures.length === 0 ? 'PASS: nothing lost' : `FAIL:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`,
  );
  return {
    text: lines.join('\n'),
    failures,
    requests: records.requests,
    journeys: records.journeysDone,
    browserJourneys: journeys.filter((journey) => journey.ok).length,
    errorsOutsideWindows: errorsOutside,
    winsLost: winsLost.length,
    completionsLost: completionsLost.length,
    vouchersLost: vouchersLost.length,
    giftsWithTwoVouchers: doubled.length,
    reloadLoops: loops.length,
    faults: results,
  };
}
