/**
 * `npm run bench` (`-- --help` for the options): the federated build against a monolith build
 * of the same pages, loaded cold in a throttled chromium, route by route, in interleaved runs;
 * then a warm client-side navigation, the first scripts' sizes and, with --lighthouse,
 * Lighthouse's scores. See bench/README.md for what each figure means. `--check` is CI's smoke
 * run of the same code: one load of each kind per build. Either exits 1 when anything it was to
 * measure did not measure: a figure that silently went missing is a bench that measures nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { REMOTE_NAMES, REMOTES } from 'shared/remotes';
import { CONSOLE, defineCommand, exitStatusOf } from '../../deploy/command-line';
import { BENCH_OPTIONS, benchOptions, CHECK_ROUTE, USAGE, type BenchOptions } from './args';
import { CHROMIUM_PATH } from 'testbed/chromium';
import { checkChromium, closeAllBrowsers, describeThrottling, launchBrowser } from './browser';
import { buildFederated, buildHostStats, buildMonolith, copyFederated, copyMonolith, freshApiData } from './build';
import { largestShares, packagesOf, type WebpackStats } from './host-packages';
import { findLighthouse, launchForLighthouse, runLighthouse, type LighthouseScores } from './lighthouse';
import { describeMachine } from './machine';
import { EMPTY_PAGE_ROUTE, serveEmptyPage } from './empty-page';
import {
  coldLoad,
  interactionRun,
  warmNavigation,
  type ColdLoad,
  type InteractionRun,
  type WarmNavigation,
} from './measure';
import { pageThroughput, type PageThroughput, type ThroughputLoad } from './page-throughput';
import { HOST_STATS_FILE, LOG_DIR, WORK_DIR } from './paths';
import { count, formatSpread, heading, kB, ms, ratioRows, table, times, unmeasured, type Metric } from './report';
import { INTERACTIONS, ROUTES, type MeasuredRoute, type PageIds } from './routes';
import {
  checkPortsFree,
  FEDERATED_ORIGIN,
  freshIds,
  MONOLITH_ORIGIN,
  originAt,
  MONOLITH_REMOTES_ORIGIN,
  PORTS,
  REMOTE_ORIGINS,
  RUN,
  SSR_MONOLITH_ORIGIN,
  startServers,
  waitForSsrMonolith,
} from './servers';
import { serveMonolithRemotes } from './ssr-monolith';
import { servedBytes, sizesOf, type SizedFile } from './sizes';
import { median } from 'testbed/stats';
import type { Server as HttpServer } from 'node:http';
import { stopAll } from 'testbed/process';

/**
 * The federated build, the monolith as the client-rendered baseline (its server reads no
 * remote), and the same monolith server-rendered (ssr-monolith.ts): the prerendered pages,
 * inline configuration and preloads the host's server gives the federated pages.
 */
type Build = 'federated' | 'monolith' | 'ssr-monolith';
const BUILDS: readonly Build[] = ['federated', 'monolith', 'ssr-monolith'];
/** The tables' columns: each build's median, then the federated build's ratio to each monolith. */
const COLUMNS = ['federated', 'CSR monolith', 'SSR monolith', 'fed/CSR', 'fed/SSR'];

const LOADS_DIR = join(LOG_DIR, 'loads');

/**
 * The monolith is served by the host's own server with the same configuration, so its HTML may
 * name the federated remotes' files (preloads of the route's remote). Its page must not fetch
 * them: it is a build without remotes. Requests to the remotes' origins fail at once there.
 */
const TARGETS = {
  federated: { origin: FEDERATED_ORIGIN, blockedOrigins: [] as string[] },
  monolith: { origin: MONOLITH_ORIGIN, blockedOrigins: [...REMOTE_ORIGINS] },
  // Its HTML preloads its "remote's" manifest from the bench's static server, which only its host's server reads.
  'ssr-monolith': { origin: SSR_MONOLITH_ORIGIN, blockedOrigins: [...REMOTE_ORIGINS, MONOLITH_REMOTES_ORIGIN] },
} satisfies Record<Build, { origin: string; blockedOrigins: string[] }>;

/** From the plain loads: nothing slows their scripts down. */
const TIMING_METRICS: Metric<ColdLoad>[] = [
  { label: 'JS requests', of: (run) => run.jsRequests, format: count },
  { label: 'JS transferred (gzip)', of: (run) => run.jsBytes, format: kB },
  { label: 'FCP', of: (run) => run.fcp, format: ms },
  { label: 'LCP', of: (run) => run.lcp, format: ms },
  { label: 'content visible', of: (run) => run.contentVisible, format: ms },
  { label: 'HTML as received', of: (run) => run.htmlBytes, format: kB },
  { label: 'HTML received (last byte)', of: (run) => run.htmlReceived, format: ms },
  { label: 'floor (1 round trip + HTML)', of: (run) => run.floor, format: ms },
  { label: 'FCP ÷ floor', of: (run) => run.fcp / run.floor, format: times },
];
/** From the loads with async call stacks traced (exact chains, slower scripts). */
const CHAIN_METRICS: Metric<ColdLoad>[] = [{ label: 'serial round trips', of: (run) => run.roundTrips, format: count }];
/** Loads per route and build with async stacks traced: their chains hardly vary. */
const CHAIN_RUNS = 3;

/** From the plain warm navigations… */
const WARM_METRICS: Metric<WarmNavigation>[] = [
  { label: 'code requests on hover', of: (run) => run.hoverCodeRequests, format: count },
  { label: 'code requests after click', of: (run) => run.clickCodeRequests, format: count },
  { label: 'click to content visible', of: (run) => run.clickToContent, format: ms },
  { label: 'code requests, back and forth', of: (run) => run.backForthCodeRequests, format: count },
];
/** …and from those with async call stacks traced (exact chains, slower scripts). */
const WARM_CHAIN_METRICS: Metric<WarmNavigation>[] = [
  { label: 'round trips after click', of: (run) => run.clickRoundTrips, format: count },
];
/** Warm navigations per build with async stacks traced. */
const WARM_CHAIN_RUNS = 2;

const LIGHTHOUSE_METRICS: Metric<LighthouseScores>[] = [
  { label: 'score', of: (scores) => scores.performance, format: count },
  { label: 'FCP', of: (scores) => scores.fcp, format: ms },
  { label: 'LCP', of: (scores) => scores.lcp, format: ms },
  { label: 'TBT', of: (scores) => scores.tbt, format: ms },
  { label: 'Speed Index', of: (scores) => scores.speedIndex, format: ms },
];

const INTERACTION_METRICS: Metric<InteractionRun>[] = [
  { label: 'interaction to next paint', of: (run) => run.inp, format: ms },
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
  /** The round of each result, parallel to `results`: a failed run leaves its round out. */
  rounds: Record<Build, number[]>;
  failures: string[];
}

/**
 * The rows of a table over the builds: each build's median, then the federated build's ratios,
 * round by round, with their spread.
 */
function buildRows<T>(metrics: readonly Metric<T>[], { results, rounds }: Interleaved<T>, first = ''): string[][] {
  return ratioRows(
    metrics,
    BUILDS.map((build) => results[build]),
    first,
    BUILDS.map((build) => rounds[build]),
  );
}

/**
 * Runs the builds in turn, `runs` times, the first of each round rotating. A run that throws,
 * or lacks one of `metrics` (NaN), is a failure: its figures are not taken.
 */
async function interleaved<T>(
  runs: number,
  what: string,
  metrics: readonly Metric<T>[],
  measure: (build: Build) => Promise<T>,
  builds: readonly Build[] = BUILDS,
): Promise<Interleaved<T>> {
  const results: Record<Build, T[]> = { federated: [], monolith: [], 'ssr-monolith': [] };
  const rounds: Record<Build, number[]> = { federated: [], monolith: [], 'ssr-monolith': [] };
  const failures: string[] = [];
  for (let run = 0; run < runs; run += 1) {
    const order = [...builds.slice(run % builds.length), ...builds.slice(0, run % builds.length)];
    for (const build of order) {
      try {
        const result = await measure(build);
        const missing = unmeasured(metrics, result);
        if (missing.length > 0) throw new Error(`measured no ${missing.join(', ')}`);
        results[build].push(result);
        rounds[build].push(run);
      } catch (error) {
        failures.push(`${what}, ${build}, run ${run + 1}: ${(error as Error).message}`);
        progress(`  ${build} run ${run + 1} failed: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  }
  return { results, rounds, failures };
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
  ids: PageIds,
  firstScripts: Partial<Record<Build, string[]>>,
): Promise<ColdLoads> {
  const chainRuns = options.check ? 1 : Math.min(options.runs, CHAIN_RUNS);
  let timing: Interleaved<ColdLoad> | undefined;
  if (!options.check) {
    progress(`cold loads of ${route.label}…`);
    timing = await interleaved(options.runs, route.label, TIMING_METRICS, async (build) => {
      const load = await coldLoad(browser, TARGETS[build], route, ids);
      saveLoad(route.label, build, load);
      progress(`  ${build.padEnd(12)} content visible ${ms(load.contentVisible)}, ${load.jsRequests} JS requests`);
      return load;
    });
  }
  progress(`${options.check ? 'cold load' : 'request chains'} of ${route.label} (async call stacks traced)…`);
  const chainMetrics = options.check ? [...TIMING_METRICS, ...CHAIN_METRICS] : CHAIN_METRICS;
  const what = options.check ? route.label : `${route.label} (request chains)`;
  const chains = await interleaved(chainRuns, what, chainMetrics, async (build) => {
    const load = await coldLoad(browser, TARGETS[build], route, ids, { traceAsyncStacks: true });
    saveLoad(`${route.label}-chains`, build, load);
    if (route.label === FIRST_SCRIPTS_ROUTE && !firstScripts[build]) {
      if (load.hostFirstScripts.length === 0)
        throw new Error("no host's first scripts (none of its scripts at depth ≤ 3)");
      firstScripts[build] = load.hostFirstScripts;
    }
    progress(`  ${build.padEnd(12)} content visible ${ms(load.contentVisible)}, ${load.roundTrips} serial round trips`);
    return load;
  });
  return { timing: timing ?? chains, chains, chainRuns };
}

/**
 * The empty page's cold loads (empty-page.ts), as many as each route's: the emulated phone's
 * own least time to a first paint, printed under the cold loads' table.
 */
async function emptyPageLoads(
  browser: Browser,
  runs: number,
  ids: PageIds,
): Promise<{ line: string; failures: string[] }> {
  progress('cold loads of an empty page…');
  const target = { origin: originAt(PORTS.emptyPage), blockedOrigins: [] };
  const loads: ColdLoad[] = [];
  const failures: string[] = [];
  for (let run = 0; run < runs; run += 1) {
    try {
      const load = await coldLoad(browser, target, EMPTY_PAGE_ROUTE, ids);
      const missing = unmeasured(TIMING_METRICS, load);
      if (missing.length > 0) throw new Error(`measured no ${missing.join(', ')}`);
      loads.push(load);
    } catch (error) {
      failures.push(`the empty page, run ${run + 1}: ${(error as Error).message}`);
    }
  }
  const of = (value: (load: ColdLoad) => number) => median(loads.map(value)) ?? Number.NaN;
  const line =
    `(an empty page, a title and one line of text with no style or script, ${loads.length}/${runs} loads: ` +
    `HTML received ${ms(of((load) => load.htmlReceived))}, floor ${ms(of((load) => load.floor))}, ` +
    `FCP ${ms(of((load) => load.fcp))}, FCP ÷ floor ${times(of((load) => load.fcp / load.floor))}: ` +
    "the emulated phone's own least, which no page's FCP ÷ floor can beat; bench/src/empty-page.ts)";
  return { line, failures };
}

async function measureCold(
  browser: Browser,
  options: BenchOptions,
  ids: PageIds,
  hostStats: WebpackStats | undefined,
): Promise<Outcome> {
  const rows: string[][] = [['route', 'metric (median)', ...COLUMNS]];
  const notes: string[] = [];
  const failures: string[] = [];
  const firstScripts: Partial<Record<Build, string[]>> = {};
  const routes = options.routes.length > 0 ? ROUTES.filter((route) => options.routes.includes(route.label)) : ROUTES;
  let chainRuns = 0;
  for (const route of routes) {
    const loads = await coldLoadsOf(browser, options, route, ids, firstScripts);
    const { timing, chains } = loads;
    chainRuns = loads.chainRuns;
    const [jsRequests, jsBytes, ...timings] = buildRows(TIMING_METRICS, timing, route.label);
    const roundTrips = buildRows(CHAIN_METRICS, chains);
    rows.push(...[jsRequests, jsBytes].filter((row) => row !== undefined), ...roundTrips, ...timings);
    const measured = (build: Build) =>
      options.check
        ? `${chains.results[build].length}/${chainRuns}`
        : `${timing.results[build].length}/${options.runs} + ${chains.results[build].length}/${chainRuns}`;
    const what = options.check ? 'runs measured (traced)' : 'runs measured (timing + chains)';
    rows.push(['', what, ...BUILDS.map(measured), '', '']);
    failures.push(...(timing === chains ? [] : timing.failures), ...chains.failures);
    for (const build of ['monolith', 'ssr-monolith'] as const) {
      const blocked = median(timing.results[build].map((load) => load.blocked)) ?? 0;
      if (blocked > 0) {
        notes.push(
          `${route.label}: the ${build}'s page asked origins it does not use for ${blocked} files per load (blocked: the preload of the route's remote manifest in the host's HTML, the remotes' build checks)`,
        );
      }
    }
    const problems = new Set(BUILDS.flatMap((build) => timing.results[build]).flatMap((load) => load.problems));
    for (const problem of [...problems].slice(0, 5)) notes.push(`${route.label}: ${problem.slice(0, 300)}`);
  }
  const empty = await emptyPageLoads(browser, options.runs, ids);
  failures.push(...empty.failures);
  log(
    heading(
      options.check
        ? `Check: 1 cold load per build of ${CHECK_ROUTE}, async call stacks traced (slower than real: not for comparison)`
        : `Cold loads: ${options.runs} runs per route and build (round trips: ${chainRuns}), interleaved; medians, and each ratio the median of the rounds' own with their spread (min–max)`,
    ),
  );
  log(table(rows));
  log(
    "(floor: one emulated round trip for the first byte, as DevTools adds its latency per request with no DNS on loopback, plus the HTML as received at the emulated bandwidth; FCP ÷ floor is the median of the loads' own ratios)",
  );
  log(empty.line);
  logSizes(firstScripts, hostStats);
  return { notes, failures };
}

/** The host's first scripts (when `/` was loaded) and each remote's entry, gzip as served. */
function logSizes(firstScripts: Partial<Record<Build, string[]>>, hostStats: WebpackStats | undefined): void {
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
  if (hostStats) logHostPackages(firstScripts.federated, hostStats);
}

/** Scripts the host's page names itself (its HTML's script elements), when / was not loaded. */
function htmlScripts(distDir: string): string[] {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  return [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map(
    (match) => new URL(match[1] ?? '', FEDERATED_ORIGIN).href,
  );
}

/** Packages listed by name in that table; the rest are added up in one row. */
const HOST_PACKAGE_ROWS = 20;

/** What the host's first scripts hold, by package (host-packages.ts: an estimate from the stats). */
function logHostPackages(measured: string[] | undefined, stats: WebpackStats): void {
  const dist = join(RUN.federated, 'host', 'dist');
  const urls = measured ?? htmlScripts(dist);
  const scripts = sizesOf(urls, dist);
  const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
  const shares = packagesOf(stats, scripts, 'host');
  const source = measured
    ? "the host's first scripts of a load of /"
    : "the scripts in the host's HTML (/ was not loaded)";
  log(heading(`The host's first scripts by package (gzip, estimated): ${source}, ${kB(total)}`));
  log(
    table([
      ['package', 'gzip', 'share'],
      ...largestShares(shares, HOST_PACKAGE_ROWS).map((share) => [
        share.name,
        kB(share.bytes),
        `${((share.bytes / total) * 100).toFixed(1)} %`,
      ]),
    ]),
  );
  log(
    "(each script's gzip size as served, shared among the packages of its chunk's modules in proportion to their sizes in the host build's webpack stats, before minifying: bench/src/host-packages.ts)",
  );
}

async function measureWarm(browser: Browser, options: BenchOptions): Promise<Outcome> {
  // --check: the federated build and the client-rendered monolith (the other shares its client
  // code), one traced navigation each giving every figure, as its cold load does.
  const builds: readonly Build[] = options.check ? ['federated', 'monolith'] : BUILDS;
  const measure = (traceAsyncStacks: boolean) => async (build: Build) => {
    const run = await warmNavigation(browser, TARGETS[build], { traceAsyncStacks });
    saveLoad(traceAsyncStacks ? 'warm-chains' : 'warm', build, run);
    progress(
      `  ${build.padEnd(12)} hover ${run.hoverCodeRequests}, click ${run.clickCodeRequests} code requests, ${ms(run.clickToContent)}${traceAsyncStacks ? ` (traced), ${run.clickRoundTrips} round trips` : ''}`,
    );
    return run;
  };
  let timing: Interleaved<WarmNavigation> | undefined;
  if (!options.check) {
    progress('warm navigations…');
    timing = await interleaved(options.warmRuns, 'warm navigation', WARM_METRICS, measure(false), builds);
  }
  progress('warm navigations (async call stacks traced)…');
  const chainRuns = options.check ? 1 : Math.min(options.warmRuns, WARM_CHAIN_RUNS);
  const chainMetrics = options.check ? [...WARM_METRICS, ...WARM_CHAIN_METRICS] : WARM_CHAIN_METRICS;
  const chains = await interleaved(chainRuns, 'warm navigation (traced)', chainMetrics, measure(true), builds);
  const results = (timing ?? chains).results;
  const [hover, click, ...rest] = buildRows(WARM_METRICS, timing ?? chains);
  log(
    heading(
      `Warm navigation: / → hover "Play" → click → /game, then back and forth; ${options.check ? '1 traced run' : `${options.warmRuns} runs (round trips: ${chainRuns} traced)`}, medians; ratios by round, with their spread (min–max)`,
    ),
  );
  const rows = [hover, click, ...buildRows(WARM_CHAIN_METRICS, chains), ...rest];
  log(table([['', 'metric (median)', ...COLUMNS], ...rows.filter((row) => row !== undefined)]));
  const problems = new Set(BUILDS.flatMap((build) => results[build]).flatMap((run) => run.problems));
  const notes = [...problems].slice(0, 5).map((problem) => `warm navigation: ${problem.slice(0, 300)}`);
  return { notes, failures: [...(timing?.failures ?? []), ...chains.failures] };
}

/**
 * Interaction to next paint for each interaction (routes.ts INTERACTIONS) under the CPU
 * throttle, on a page loaded cold and left to settle. An interaction that changes its data
 * (submitting the redeem form) gets a fresh gift and session per run. --check: the federated
 * build, once each.
 */
async function measureInteractions(browser: Browser, options: BenchOptions, ids: PageIds): Promise<Outcome> {
  const rows: string[][] = [['interaction', 'metric (median)', ...COLUMNS]];
  const notes: string[] = [];
  const failures: string[] = [];
  const builds: readonly Build[] = options.check ? ['federated'] : BUILDS;
  for (const interaction of INTERACTIONS) {
    progress(`interaction: ${interaction.label}…`);
    const measured = await interleaved(
      options.warmRuns,
      interaction.label,
      INTERACTION_METRICS,
      async (build) => {
        const run = await interactionRun(
          browser,
          TARGETS[build],
          interaction,
          interaction.changesData ? await freshIds() : ids,
        );
        progress(`  ${build.padEnd(12)} ${ms(run.inp)}`);
        return run;
      },
      builds,
    );
    failures.push(...measured.failures);
    rows.push(...buildRows(INTERACTION_METRICS, measured, interaction.label));
    const problems = new Set(BUILDS.flatMap((build) => measured.results[build]).flatMap((run) => run.problems));
    for (const problem of [...problems].slice(0, 3)) notes.push(`${interaction.label}: ${problem.slice(0, 300)}`);
  }
  log(
    heading(
      `Interaction to next paint (${describeThrottling().split(',')[0]}): ${options.check ? 1 : options.warmRuns} run(s) per build, medians; ratios by round, with their spread (min–max)`,
    ),
  );
  log(table(rows));
  log(
    "(Event Timing entries of 16 ms and more, the interaction's longest, as web-vitals reads INP; the page loaded cold and settled first)",
  );
  return { notes, failures };
}

/** Paths whose throughput is measured; --check only the first, briefly. */
const THROUGHPUT_PATHS = ['/', '/about'];

/** The host's page throughput against a bare Node server sending the same answer (page-throughput.ts). */
async function measureThroughput(options: BenchOptions): Promise<Outcome> {
  // --check proves the figures come, not a rate to compare: one round of a second per server.
  const load: ThroughputLoad = options.check
    ? { connections: 50, seconds: 1, rounds: 1 }
    : { connections: 50, seconds: 8, rounds: 4 };
  const rows: string[][] = [['page', 'bytes', 'host server', 'bare Node server', 'host ÷ bare, by round']];
  const failures: string[] = [];
  for (const path of options.check ? THROUGHPUT_PATHS.slice(0, 1) : THROUGHPUT_PATHS) {
    progress(`page throughput of ${path} (autocannon, ${load.connections} connections, ${load.seconds} s per server)…`);
    let result: PageThroughput;
    try {
      result = await pageThroughput(FEDERATED_ORIGIN, PORTS.barePage, path, load);
    } catch (error) {
      failures.push(`throughput of ${path}: ${(error as Error).message}`);
      continue;
    }
    if (result.failures > 0) failures.push(`throughput of ${path}: ${result.failures} answers failed or were not 2xx`);
    rows.push([
      path,
      kB(result.bytes),
      `${Math.round(result.hostRps)} req/s`,
      `${Math.round(result.bareRps)} req/s`,
      formatSpread(result.roundRatios),
    ]);
  }
  log(
    heading(
      `The host's page throughput: autocannon, ${load.connections} connections, ${load.seconds} s per server in ${load.rounds} round(s) taking turns, the federated host's server and a bare Node server sending its answer`,
    ),
  );
  log(table(rows));
  log(
    "(uncompressed, as autocannon asks; the bare server sends the status, headers and body the host sent; the ratio is the median of the rounds' own, each round's two runs back to back, with their spread: bench/src/page-throughput.ts)",
  );
  return { notes: [], failures };
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
      for (const build of BUILDS) {
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
  if (options.check) log('check passed: every figure measured, for every build');
}

/** What the run needs before it measures: Lighthouse if asked for, Chromium, free ports. */
async function checkReady(options: BenchOptions): Promise<string | undefined> {
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
    PORTS.ssrMonolithHost,
    PORTS.monolithRemotes,
    PORTS.barePage,
    PORTS.emptyPage,
    ...(lighthouse ? [PORTS.lighthouseDebugging] : []),
  ]);
  return lighthouse;
}

async function buildAndCopyFederated(options: BenchOptions): Promise<void> {
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
  freshApiData();
}

/** The host built again for its webpack stats (20-45 s): not in --check, which must stay short. */
async function hostStatsFor(options: BenchOptions): Promise<WebpackStats | undefined> {
  if (options.check) {
    log("          the host's build by package: not in --check (it needs another build of the host)");
    return undefined;
  }
  progress('building the host again for its webpack stats (what its first scripts hold)…');
  const statsMs = await buildHostStats();
  log(`          the host for its stats (bench/src/host-stats-config.ts) ${seconds(statsMs)} wall`);
  return JSON.parse(readFileSync(HOST_STATS_FILE, 'utf8')) as WebpackStats;
}

async function main(options: BenchOptions): Promise<void> {
  const startedAt = Date.now();
  const lighthouse = await checkReady(options);
  mkdirSync(WORK_DIR, { recursive: true });

  log('Gift Box bench: federated build vs monolith build of the same pages');
  for (const line of describeMachine(`Chromium ${chromiumVersion()}`)) log(line);
  log(`network:  ${describeThrottling()}, cold cache (a new browser context per load)`);

  await buildAndCopyFederated(options);
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
  const hostStats = await hostStatsFor(options);

  progress('starting the servers…');
  monolithRemotes = await serveMonolithRemotes(RUN.monolithRemotes, PORTS.monolithRemotes);
  emptyPage = await serveEmptyPage(PORTS.emptyPage);
  await Promise.all([
    federatedServers ?? startServers(['federated']),
    startServers(['monolith']),
    startServers(['ssr-monolith']),
  ]);
  await waitForSsrMonolith();
  const ids = await freshIds();

  const outcomes: Outcome[] = [];
  const browser = await launchBrowser();
  try {
    outcomes.push(await measureCold(browser, options, ids, hostStats));
    outcomes.push(await measureWarm(browser, options));
    outcomes.push(await measureInteractions(browser, options, ids));
  } finally {
    await browser.close();
  }
  outcomes.push(await measureThroughput(options));
  if (lighthouse) outcomes.push(await measureLighthouse(lighthouse, options));
  finish(outcomes, options, startedAt);
}

/** The bench's static server of the server-rendered monolith's "remotes" (in this process). */
let monolithRemotes: HttpServer | undefined;
/** The empty page's server (empty-page.ts), in this process too. */
let emptyPage: HttpServer | undefined;

let stopping: Promise<void> | undefined;
function stopEverything(): Promise<void> {
  stopping ??= closeAllBrowsers()
    .then(() => stopAll())
    .then(() => {
      monolithRemotes?.close();
      emptyPage?.close();
    })
    .finally(() => rmSync(RUN.apiData, { recursive: true, force: true }));
  return stopping;
}

let signalled = false;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  // process.on, not once: npm relays the terminal's Ctrl-C, and that copy must not end the process.
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    progress(`\n${signal}: stopping everything the bench started…`);
    void stopEverything().finally(() => process.exit(code));
  });
}

const benchCommand = defineCommand({
  name: 'bench',
  summary: 'the federated build against a monolith build of the same pages',
  usage: USAGE,
  options: BENCH_OPTIONS,
  run: (line) => exitStatusOf('bench', main(benchOptions(line))),
});

void benchCommand.main(process.argv.slice(2), CONSOLE).then(async (code) => {
  process.exitCode = code;
  await stopEverything();
});
