/**
 * `npm run bench` (`-- --help` for the options): the federated build against a monolith build
 * of the same pages, loaded cold in a throttled chromium, route by route, in interleaved runs;
 * then a warm client-side navigation, the first scripts' sizes and, with --lighthouse,
 * Lighthouse's scores. See bench/README.md for what each figure means. `--check` is CI's smoke
 * run of the same code: one load of each kind per build. Either exits 1 when anything it was to
 * measure did not measure: a figure that silently went missing is a bench that measures nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { REMOTE_NAMES, REMOTES } from 'shared/remotes';
import { CHECK_ROUTE, parseArgs, USAGE, type BenchOptions } from './args';
import { checkChromium, CHROMIUM_PATH, closeAllBrowsers, describeThrottling, launchBrowser } from './browser';
import { buildFederated, buildMonolith, copyFederated, copyMonolith } from './build';
import { findLighthouse, launchForLighthouse, runLighthouse, type LighthouseScores } from './lighthouse';
import { describeMachine } from './machine';
import { coldLoad, warmNavigation, type ColdLoad, type WarmNavigation } from './measure';
import { LOG_DIR, WORK_DIR } from './paths';
import { comparisonRows, count, heading, kB, ms, table, unmeasured, type Metric } from './report';
import { ROUTES, type MeasuredRoute } from './routes';
import {
  checkPortsFree,
  FEDERATED_ORIGIN,
  MONOLITH_ORIGIN,
  PORTS,
  REMOTE_ORIGINS,
  RUN,
  startServers,
  winGift,
} from './servers';
import { servedBytes, sizesOf, type SizedFile } from './sizes';
import { median } from './stats';
import { stopAll } from 'testbed/process';

type Build = 'federated' | 'monolith';

const LOADS_DIR = join(LOG_DIR, 'loads');

/**
 * The monolith is served by the host's own server with the same configuration, so its HTML may
 * name the federated remotes' files (preloads of the route's remote). Its page must not fetch
 * them: it is a build without remotes. Requests to the remotes' origins fail at once there.
 */
const TARGETS = {
  federated: { origin: FEDERATED_ORIGIN, blockedOrigins: [] as string[] },
  monolith: { origin: MONOLITH_ORIGIN, blockedOrigins: [...REMOTE_ORIGINS] },
} satisfies Record<Build, { origin: string; blockedOrigins: string[] }>;

/** From the plain loads: nothing slows their scripts down. */
const TIMING_METRICS: Metric<ColdLoad>[] = [
  { label: 'JS requests', of: (run) => run.jsRequests, format: count },
  { label: 'JS transferred (gzip)', of: (run) => run.jsBytes, format: kB },
  { label: 'FCP', of: (run) => run.fcp, format: ms },
  { label: 'LCP', of: (run) => run.lcp, format: ms },
  { label: 'content visible', of: (run) => run.contentVisible, format: ms },
];
/** From the loads with async call stacks traced (exact chains, slower scripts). */
const CHAIN_METRICS: Metric<ColdLoad>[] = [{ label: 'serial round trips', of: (run) => run.roundTrips, format: count }];
/** Loads per route and build with async stacks traced: their chains hardly vary. */
const CHAIN_RUNS = 3;

const WARM_METRICS: Metric<WarmNavigation>[] = [
  { label: 'code requests on hover', of: (run) => run.hoverCodeRequests, format: count },
  { label: 'code requests after click', of: (run) => run.clickCodeRequests, format: count },
  { label: 'round trips after click', of: (run) => run.clickRoundTrips, format: count },
  { label: 'click to content visible', of: (run) => run.clickToContent, format: ms },
  { label: 'code requests, back and forth', of: (run) => run.backForthCodeRequests, format: count },
];

const LIGHTHOUSE_METRICS: Metric<LighthouseScores>[] = [
  { label: 'score', of: (scores) => scores.performance, format: count },
  { label: 'FCP', of: (scores) => scores.fcp, format: ms },
  { label: 'LCP', of: (scores) => scores.lcp, format: ms },
  { label: 'TBT', of: (scores) => scores.tbt, format: ms },
  { label: 'Speed Index', of: (scores) => scores.speedIndex, format: ms },
];

const log = (text = '') => console.log(text);
const progress = (text: string) => process.stderr.write(`${text}\n`);

/**
 * What a part of the bench gives besides its tables: notes (console errors, blocked requests)
 * and failures (a load that failed or lacks a figure), which make the bench exit 1.
 */
interface Outcome {
  notes: string[];
  failures: string[];
}

interface Interleaved<T> {
  results: Record<Build, T[]>;
  failures: string[];
}

/**
 * Runs both builds in turn, `runs` times, the first of each pair alternating. A run that throws,
 * or lacks one of `metrics` (NaN), is a failure: its figures are not taken.
 */
async function interleaved<T>(
  runs: number,
  what: string,
  metrics: readonly Metric<T>[],
  measure: (build: Build) => Promise<T>,
): Promise<Interleaved<T>> {
  const results: Record<Build, T[]> = { federated: [], monolith: [] };
  const failures: string[] = [];
  for (let run = 0; run < runs; run += 1) {
    const order: Build[] = run % 2 === 0 ? ['federated', 'monolith'] : ['monolith', 'federated'];
    for (const build of order) {
      try {
        const result = await measure(build);
        const missing = unmeasured(metrics, result);
        if (missing.length > 0) throw new Error(`measured no ${missing.join(', ')}`);
        results[build].push(result);
      } catch (error) {
        failures.push(`${what}, ${build}, run ${run + 1}: ${(error as Error).message}`);
        progress(`  ${build} run ${run + 1} failed: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  }
  return { results, failures };
}

function chromiumVersion(): string {
  try {
    const output = execFileSync(CHROMIUM_PATH, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return /[\d.]+/.exec(output)?.[0] ?? output.trim();
  } catch {
    return `not found at ${CHROMIUM_PATH}`;
  }
}

function seconds(msValue: number): string {
  return `${(msValue / 1000).toFixed(1)} s`;
}

/** Each load's requests, in bench/.work/logs/loads/{route}-{build}-{n}.json, to check the figures by. */
const saved = new Map<string, number>();
function saveLoad(route: string, build: Build, load: ColdLoad | WarmNavigation): void {
  const key = `${route.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '') || 'home'}-${build}`;
  const n = (saved.get(key) ?? 0) + 1;
  saved.set(key, n);
  mkdirSync(LOADS_DIR, { recursive: true });
  writeFileSync(join(LOADS_DIR, `${key}-${n}.json`), `${JSON.stringify(load, null, 1)}\n`);
}

function sizeRows(label: string, files: readonly SizedFile[]): string[][] {
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  return [[label, `${files.length} files`, kB(total)], ...files.map((file) => ['', file.name, kB(file.bytes)])];
}

/** The host's first scripts need the chains of a load of `/`: none found means none measured. */
const FIRST_SCRIPTS_ROUTE = '/';

interface ColdLoads {
  /** The loads the timings come from. */
  timing: Interleaved<ColdLoad>;
  /** The loads with async call stacks traced: the request chains. */
  chains: Interleaved<ColdLoad>;
  chainRuns: number;
}

/**
 * A route's cold loads: `options.runs` plain loads for the timings, then loads with async call
 * stacks traced for the request chains. --check makes one traced load per build give both: it
 * proves that every figure measures, and its timings (slowed by the tracing) are not for reading.
 */
async function coldLoadsOf(
  browser: Browser,
  options: BenchOptions,
  route: MeasuredRoute,
  giftId: string,
  firstScripts: Partial<Record<Build, string[]>>,
): Promise<ColdLoads> {
  const chainRuns = options.check ? 1 : Math.min(options.runs, CHAIN_RUNS);
  let timing: Interleaved<ColdLoad> | undefined;
  if (!options.check) {
    progress(`cold loads of ${route.label}…`);
    timing = await interleaved(options.runs, route.label, TIMING_METRICS, async (build) => {
      const load = await coldLoad(browser, TARGETS[build], route, giftId);
      saveLoad(route.label, build, load);
      progress(`  ${build.padEnd(9)} content visible ${ms(load.contentVisible)}, ${load.jsRequests} JS requests`);
      return load;
    });
  }
  progress(`${options.check ? 'cold load' : 'request chains'} of ${route.label} (async call stacks traced)…`);
  const chainMetrics = options.check ? [...TIMING_METRICS, ...CHAIN_METRICS] : CHAIN_METRICS;
  const what = options.check ? route.label : `${route.label} (request chains)`;
  const chains = await interleaved(chainRuns, what, chainMetrics, async (build) => {
    const load = await coldLoad(browser, TARGETS[build], route, giftId, { traceAsyncStacks: true });
    saveLoad(`${route.label}-chains`, build, load);
    if (route.label === FIRST_SCRIPTS_ROUTE && !firstScripts[build]) {
      if (load.hostFirstScripts.length === 0)
        throw new Error("no host's first scripts (none of its scripts at depth ≤ 3)");
      firstScripts[build] = load.hostFirstScripts;
    }
    progress(`  ${build.padEnd(9)} content visible ${ms(load.contentVisible)}, ${load.roundTrips} serial round trips`);
    return load;
  });
  return { timing: timing ?? chains, chains, chainRuns };
}

async function measureCold(browser: Browser, options: BenchOptions, giftId: string): Promise<Outcome> {
  const rows: string[][] = [['route', 'metric (median)', 'federated', 'monolith', 'fed/mono']];
  const notes: string[] = [];
  const failures: string[] = [];
  const firstScripts: Partial<Record<Build, string[]>> = {};
  const routes = options.routes.length > 0 ? ROUTES.filter((route) => options.routes.includes(route.label)) : ROUTES;
  let chainRuns = 0;
  for (const route of routes) {
    const loads = await coldLoadsOf(browser, options, route, giftId, firstScripts);
    const { timing, chains } = loads;
    chainRuns = loads.chainRuns;
    const [jsRequests, jsBytes, ...times] = comparisonRows(
      TIMING_METRICS,
      timing.results.federated,
      timing.results.monolith,
      route.label,
    );
    const roundTrips = comparisonRows(CHAIN_METRICS, chains.results.federated, chains.results.monolith);
    rows.push(...[jsRequests, jsBytes].filter((row) => row !== undefined), ...roundTrips, ...times);
    const measured = (build: Build) =>
      options.check
        ? `${chains.results[build].length}/${chainRuns}`
        : `${timing.results[build].length}/${options.runs} + ${chains.results[build].length}/${chainRuns}`;
    const what = options.check ? 'runs measured (traced)' : 'runs measured (timing + chains)';
    rows.push(['', what, measured('federated'), measured('monolith'), '']);
    failures.push(...(timing === chains ? [] : timing.failures), ...chains.failures);
    const blocked = median(timing.results.monolith.map((load) => load.blocked)) ?? 0;
    if (blocked > 0) {
      notes.push(
        `${route.label}: the monolith's page asked the remotes' origins for ${blocked} files per load (blocked: the host's HTML preloads the route's remote)`,
      );
    }
    const problems = new Set(
      [...timing.results.federated, ...timing.results.monolith].flatMap((load) => load.problems),
    );
    for (const problem of [...problems].slice(0, 5)) notes.push(`${route.label}: ${problem.slice(0, 300)}`);
  }
  log(
    heading(
      options.check
        ? `Check: 1 cold load per build of ${CHECK_ROUTE}, async call stacks traced (slower than real: not for comparison)`
        : `Cold loads: ${options.runs} runs per route and build (round trips: ${chainRuns}), interleaved; medians`,
    ),
  );
  log(table(rows));
  logSizes(firstScripts);
  return { notes, failures };
}

/** The host's first scripts (when `/` was loaded) and each remote's entry, gzip as served. */
function logSizes(firstScripts: Partial<Record<Build, string[]>>): void {
  log(heading('First scripts and remote entries (gzip, as served)'));
  const sizes: string[][] = [['', 'file', 'gzip']];
  for (const build of ['federated', 'monolith'] as const) {
    const urls = firstScripts[build];
    const dist = join(build === 'federated' ? RUN.federated : RUN.monolith, 'host', 'dist');
    if (urls) sizes.push(...sizeRows(`${build}: host's first scripts`, sizesOf(urls, dist)));
  }
  for (const remote of REMOTE_NAMES) {
    const file = join(RUN.federated, REMOTES[remote].packageDir, 'dist', 'remoteEntry.js');
    sizes.push([`${remote} remote`, 'remoteEntry.js', kB(servedBytes(file))]);
  }
  log(table(sizes));
  log(
    "(host's first scripts: the scripts in the host's HTML and those they load before bootstrap runs, i.e. the host's own scripts at depth ≤ 3 of a cold load of /, async call stacks traced; printed when / is loaded)",
  );
}

async function measureWarm(browser: Browser, options: BenchOptions): Promise<Outcome> {
  progress('warm navigations…');
  const { results, failures } = await interleaved(options.warmRuns, 'warm navigation', WARM_METRICS, async (build) => {
    const run = await warmNavigation(browser, TARGETS[build]);
    saveLoad('warm', build, run);
    progress(
      `  ${build.padEnd(9)} hover ${run.hoverCodeRequests}, click ${run.clickCodeRequests} code requests, ${ms(run.clickToContent)}`,
    );
    return run;
  });
  log(
    heading(
      `Warm navigation: / → hover "Play" → click → /game, then back and forth; ${options.warmRuns} runs, medians`,
    ),
  );
  log(
    table([
      ['', 'metric (median)', 'federated', 'monolith', 'fed/mono'],
      ...comparisonRows(WARM_METRICS, results.federated, results.monolith),
    ]),
  );
  const problems = new Set([...results.federated, ...results.monolith].flatMap((run) => run.problems));
  const notes = [...problems].slice(0, 5).map((problem) => `warm navigation: ${problem.slice(0, 300)}`);
  return { notes, failures };
}

async function measureLighthouse(bin: string, options: BenchOptions): Promise<Outcome> {
  const failures: string[] = [];
  const rows: string[][] = [['page', 'build', ...LIGHTHOUSE_METRICS.map((metric) => metric.label)]];
  const browser = await launchForLighthouse(PORTS.lighthouseDebugging);
  try {
    for (const path of ['/', '/game']) {
      progress(`Lighthouse on ${path}…`);
      const lighthouse = await interleaved(options.lighthouseRuns, `Lighthouse ${path}`, LIGHTHOUSE_METRICS, (build) =>
        runLighthouse(bin, `${TARGETS[build].origin}${path}`, {
          port: PORTS.lighthouseDebugging,
          name: `lighthouse-${build}-${path === '/' ? 'home' : path.replace(/\W+/g, '')}`,
          blockedOrigins: TARGETS[build].blockedOrigins,
        }),
      );
      failures.push(...lighthouse.failures);
      for (const build of ['federated', 'monolith'] as const) {
        const cells = LIGHTHOUSE_METRICS.map((metric) => {
          const value = median(lighthouse.results[build].map(metric.of));
          return value === undefined ? '–' : metric.format(value);
        });
        rows.push([build === 'federated' ? path : '', build, ...cells]);
      }
    }
  } finally {
    await browser.close();
  }
  log(heading(`Lighthouse (mobile preset, performance only); median of ${options.lighthouseRuns} run(s)`));
  log(table(rows));
  return { notes: [], failures };
}

/** What a run says at its end: its notes, then its failures, which make it exit 1. */
function finish(outcomes: readonly Outcome[], options: BenchOptions, startedAt: number): void {
  const notes = outcomes.flatMap((outcome) => outcome.notes);
  const failures = outcomes.flatMap((outcome) => outcome.failures);
  if (notes.length > 0) {
    log(heading('Notes'));
    for (const note of notes) log(`- ${note}`);
  }
  log(`\ntook:     ${seconds(Date.now() - startedAt)} wall`);
  if (failures.length > 0) {
    log(heading('Failures: these did not measure'));
    for (const failure of failures) log(`- ${failure}`);
    throw new Error(
      `${failures.length} load(s) did not measure (listed under "Failures" above): the figures are incomplete`,
    );
  }
  if (options.check) log('check passed: every figure measured, for both builds');
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    log(USAGE);
    return;
  }
  const lighthouse = options.lighthouse ? findLighthouse() : undefined;
  if (options.lighthouse && !lighthouse) {
    throw new Error('--lighthouse needs the lighthouse package: npm install --save-dev -w bench lighthouse@12.8.2');
  }
  checkChromium();
  await checkPortsFree([
    PORTS.federatedHost,
    ...REMOTE_NAMES.map((name) => PORTS[name]),
    PORTS.api,
    PORTS.monolithHost,
    ...(lighthouse ? [PORTS.lighthouseDebugging] : []),
  ]);
  mkdirSync(WORK_DIR, { recursive: true });

  log('Gift Box bench: federated build vs monolith build of the same pages');
  for (const line of describeMachine(`Chromium ${chromiumVersion()}`)) log(line);
  log(`network:  ${describeThrottling()}, cold cache (a new browser context per load)`);

  if (options.build) {
    progress('npm run build (the federated parts)…');
    const { federatedMs, warmCaches } = await buildFederated();
    const cache =
      warmCaches.length > 0
        ? `webpack filesystem caches present for ${warmCaches.join(', ')}`
        : 'cold: no webpack filesystem cache';
    log(`build:    npm run build ${seconds(federatedMs ?? 0)} wall (${cache})`);
  } else {
    log(`build:    ${options.check ? '--check' : '--no-build'}: the packages' current dist folders`);
  }
  progress('copying the builds into bench/.work/run…');
  await copyFederated();
  rmSync(LOADS_DIR, { recursive: true, force: true });
  rmSync(RUN.apiData, { recursive: true, force: true });
  // --check starts the federated servers (the API's new database takes a while) as the monolith
  // builds; a full run builds alone, so that the build time it prints is the build's own.
  const federatedServers = options.check ? startServers(['federated']) : undefined;
  // Awaited below; a failed build must not leave its rejection unhandled meanwhile.
  federatedServers?.catch(() => undefined);
  progress(`building the monolith${federatedServers ? ' (the federated servers starting meanwhile)' : ''}…`);
  const monolithMs = await buildMonolith();
  const meanwhile = federatedServers ? ', the servers starting meanwhile' : '';
  log(`          monolith (bench/monolith/webpack.config.ts) ${seconds(monolithMs)} wall${meanwhile}`);
  copyMonolith();

  progress('starting the servers…');
  await Promise.all([federatedServers ?? startServers(['federated']), startServers(['monolith'])]);
  const giftId = await winGift();

  const outcomes: Outcome[] = [];
  const browser = await launchBrowser();
  try {
    outcomes.push(await measureCold(browser, options, giftId));
    outcomes.push(await measureWarm(browser, options));
  } finally {
    await browser.close();
  }
  if (lighthouse) outcomes.push(await measureLighthouse(lighthouse, options));
  finish(outcomes, options, startedAt);
}

let stopping: Promise<void> | undefined;
function stopEverything(): Promise<void> {
  stopping ??= closeAllBrowsers()
    .then(() => stopAll())
    .finally(() => rmSync(RUN.apiData, { recursive: true, force: true }));
  return stopping;
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    progress(`\n${signal}: stopping everything the bench started…`);
    void stopEverything().finally(() => process.exit(code));
  });
}

main()
  .catch((error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => stopEverything());
