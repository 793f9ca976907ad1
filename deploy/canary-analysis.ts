/**
 * Judges a canary build against the stable build of the same remote from what visitors' browsers
 * reported (shared/telemetry: remote loads by `{remote, build, outcome}`, error pages by
 * `{remote, build}`, Core Web Vitals by `{metric, remote, build}`), as Prometheus holds it: the
 * release run (release.ts) asks after each step's interval whether to go on, stop or abort.
 *
 * Each figure is an instant query of Prometheus's HTTP API (`GET /api/v1/query`) over a window
 * ending now: the canary's from the step's start, the stable build's from a while before the
 * canary started (its visitors then are the baseline, and at 100 % it has none of its own). A
 * canary's series are all born inside its window, already counting, and `increase()` starts at a
 * series' first sample, so it would count nothing of a batch of failures scraped at 12: the
 * queries count a series absent at the window's start, from a target scraped before its first
 * sample, at its whole value, as deploy/prometheus's recording rules do.
 *
 * The figures are what pages with a ticket of the host's server reported (the API labels nothing
 * else with a build), and each count comes with the distinct clients (hashed addresses) behind it
 * (`giftbox_build_clients_total`): one client can load many pages, so a ratio decides only when
 * at least `minClients` clients stand behind it.
 *
 * Verdicts: `failing` when the canary is worse than stable beyond a threshold, as told by enough
 * clients (the figures and which threshold say why, and whether a second signal corroborates the
 * first), `inconclusive` while the canary has too few loads or clients to judge (unless its
 * failures alone already decide), `unreachable` when Prometheus did not answer (the run then
 * never promotes blind), `healthy` otherwise.
 */
import { FAILED_LOAD_OUTCOMES, METRIC } from 'shared/telemetry';

export interface Thresholds {
  /** Failing when the canary's load-failure ratio is this many points (of 100) above stable's. */
  loadFailurePoints: number;
  /** Failing when the canary's error-page ratio (error pages per load) is this many points above stable's. */
  errorPagePoints: number;
  /** Failing when the canary's p75 LCP is this many percent above stable's… */
  lcpPercent: number;
  /** …and at least this many milliseconds above it. */
  lcpMs: number;
  /** Likewise for INP: percent… */
  inpPercent: number;
  /** …and milliseconds. */
  inpMs: number;
  /** The canary's loads in the window below which no verdict but `inconclusive` (or a certain `failing`) is given. */
  minSample: number;
  /**
   * The distinct clients a figure needs behind it: fewer clients reporting the canary's loads
   * give no verdict but `inconclusive`, and fewer reporting its failures (or error pages) fail
   * nothing, however many events they sent.
   */
  minClients: number;
}

export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = {
  loadFailurePoints: 5,
  errorPagePoints: 5,
  lcpPercent: 25,
  lcpMs: 250,
  inpPercent: 25,
  inpMs: 100,
  minSample: 50,
  minClients: 5,
};

/** How long before the canary's start the stable build's figures are taken from (seconds). */
export const DEFAULT_BASELINE_LOOKBACK_S = 10 * 60;
/** The shortest window queried: Prometheus needs a few scrapes in a range. */
const MIN_WINDOW_S = 5;
/** The longest wait for one answer of Prometheus. */
export const QUERY_TIMEOUT_MS = 10_000;

/** What one build's visitors reported in a window. */
export interface BuildFigures {
  build: string;
  /** Loads of the remote's build (every outcome): the sample. */
  loads: number;
  /** Of them, failed (FAILED_LOAD_OUTCOMES). */
  failedLoads: number;
  errorPages: number;
  /** Page views with an LCP of the build's part. */
  pageViews: number;
  /** Distinct clients that reported loads of the build, failed loads, error pages (each counted once per process and 10 minutes). */
  clients: number;
  failedClients: number;
  errorPageClients: number;
  /** failedLoads / loads; 0 without loads. */
  loadFailureRatio: number;
  /** errorPages / loads (capped at 1); 0 without loads. */
  errorPageRatio: number;
  /** p75 LCP and INP in ms; undefined without a sample. */
  lcpP75Ms?: number;
  inpP75Ms?: number;
}

export type Verdict =
  | { kind: 'healthy'; canary: BuildFigures; stable: BuildFigures }
  | {
      kind: 'failing';
      canary: BuildFigures;
      stable: BuildFigures;
      reasons: string[];
      /** The second signal that agrees with the first, or undefined when one signal alone decided. */
      corroboration?: string;
    }
  | { kind: 'inconclusive'; canary: BuildFigures; stable: BuildFigures; reason: string }
  | { kind: 'unreachable'; reason: string };

export interface AnalysisOptions {
  /** Prometheus's base URL, such as http://127.0.0.1:9090. */
  prometheus: string;
  remote: string;
  stable: string;
  canary: string;
  /** The canary's window starts here (ms since the epoch): the step's start. */
  since: number;
  /** When the canary started (ms): the stable build's window starts `baselineLookbackS` before it. */
  canaryStart?: number;
  baselineLookbackS?: number;
  thresholds?: Partial<Thresholds>;
  /** Now (ms); the clock by default. */
  now?: number;
  timeoutMs?: number;
}

/** Prometheus did not answer, or answered something that is not a query's result. */
export class PrometheusUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrometheusUnreachable';
  }
}

/** A label value inside a PromQL string literal. */
function quote(value: string): string {
  return JSON.stringify(value);
}

/**
 * The increase of every series `selector` picks over `window` (such as `90s`), summed, counting a
 * series born inside the window at its whole value (recording.rules.yml explains the terms).
 */
export function bornAwareIncrease(selector: string, window: string, by = ''): string {
  const grouping = by ? ` by (${by})` : '';
  return (
    `sum${grouping} (` +
    `((${selector} unless ${selector} offset ${window})` +
    ` and (count_over_time(${selector}[${window}]) < on (instance, job) group_left sum_over_time(up[${window}])))` +
    ` or increase(${selector}[${window}]))`
  );
}

/** The queries of one build's figures over `window`. */
export function figureQueries(remote: string, build: string, window: string): Record<string, string> {
  const labels = `remote=${quote(remote)}, build=${quote(build)}`;
  const failed = FAILED_LOAD_OUTCOMES.join('|');
  const quantile = (metric: string) =>
    `histogram_quantile(0.75, ${bornAwareIncrease(
      `${METRIC.webVitalSeconds}_bucket{${labels}, metric=${quote(metric)}}`,
      window,
      'le',
    )})`;
  return {
    loads: bornAwareIncrease(`${METRIC.remoteLoads}{${labels}}`, window),
    failedLoads: bornAwareIncrease(`${METRIC.remoteLoads}{${labels}, outcome=~${quote(failed)}}`, window),
    errorPages: bornAwareIncrease(`${METRIC.errorPages}{${labels}}`, window),
    pageViews: bornAwareIncrease(`${METRIC.webVitalSeconds}_count{${labels}, metric="LCP"}`, window),
    clients: bornAwareIncrease(`${METRIC.buildClients}{${labels}, signal="load"}`, window),
    failedClients: bornAwareIncrease(`${METRIC.buildClients}{${labels}, signal="failed"}`, window),
    errorPageClients: bornAwareIncrease(`${METRIC.buildClients}{${labels}, signal="error_page"}`, window),
    lcp: quantile('LCP'),
    inp: quantile('INP'),
  };
}

interface QueryAnswer {
  status?: string;
  data?: { resultType?: string; result?: { value?: [number, string] }[] };
  errorType?: string;
  error?: string;
}

/** An instant query's one value at `time` (s), or undefined for an empty answer or NaN. */
async function queryValue(base: string, expr: string, time: number, timeoutMs: number): Promise<number | undefined> {
  const url = new URL('api/v1/query', base.endsWith('/') ? base : `${base}/`);
  url.search = new URLSearchParams({ query: expr, time: time.toFixed(3) }).toString();
  let answer: QueryAnswer;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    answer = (await response.json()) as QueryAnswer;
  } catch (error) {
    throw new PrometheusUnreachable(`${url.origin} did not answer: ${(error as Error).message}`);
  }
  if (answer.status !== 'success' || answer.data?.resultType !== 'vector') {
    throw new PrometheusUnreachable(
      `${url.origin} refused a query (${answer.errorType ?? 'no result'}: ${answer.error ?? 'not a vector'}): ${expr}`,
    );
  }
  const raw = answer.data.result?.[0]?.value?.[1];
  const value = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/** Seconds in a PromQL duration, whole and at least MIN_WINDOW_S. */
function windowOf(fromMs: number, toMs: number): string {
  return `${Math.max(MIN_WINDOW_S, Math.ceil((toMs - fromMs) / 1000))}s`;
}

/** One build's figures over the window from `fromMs` to `nowMs`. */
export async function buildFigures(
  prometheus: string,
  remote: string,
  build: string,
  fromMs: number,
  nowMs: number,
  timeoutMs = QUERY_TIMEOUT_MS,
): Promise<BuildFigures> {
  const queries = figureQueries(remote, build, windowOf(fromMs, nowMs));
  const time = nowMs / 1000;
  const entries = await Promise.all(
    Object.entries(queries).map(async ([name, expr]) => [name, await queryValue(prometheus, expr, time, timeoutMs)]),
  );
  const values = Object.fromEntries(entries) as Record<keyof typeof queries, number | undefined>;
  // Counts are increases, extrapolated at the window's edges: whole numbers are what happened.
  const count = (value: number | undefined) => Math.round(value ?? 0);
  const loads = count(values.loads);
  const failedLoads = Math.min(count(values.failedLoads), loads);
  const errorPages = count(values.errorPages);
  const ms = (seconds: number | undefined) => (seconds === undefined ? undefined : Math.round(seconds * 1000));
  return {
    build,
    loads,
    failedLoads,
    errorPages,
    pageViews: count(values.pageViews),
    clients: count(values.clients),
    failedClients: count(values.failedClients),
    errorPageClients: count(values.errorPageClients),
    loadFailureRatio: loads > 0 ? failedLoads / loads : 0,
    errorPageRatio: loads > 0 ? Math.min(1, errorPages / loads) : 0,
    lcpP75Ms: ms(values.lcp),
    inpP75Ms: ms(values.inp),
  };
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** One way the canary is worse than stable: the signal it was seen in, and why, with the figures. */
export interface Finding {
  signal: 'load failures' | 'error pages' | 'LCP' | 'INP';
  reason: string;
}

/**
 * How the canary is worse than stable beyond the thresholds; empty when it is not. A ratio is
 * judged on at least `minSample` loads: below it, its failures over `minSample` (as if every load
 * still to come succeeded), so a few failures of a young canary fail it only when they already
 * decide; and only when at least `minClients` clients reported those failures, so one client's
 * many events decide nothing. The vitals are judged on a whole sample of enough clients.
 */
export function findings(canary: BuildFigures, stable: BuildFigures, thresholds: Thresholds): Finding[] {
  const found: Finding[] = [];
  const denominator = Math.max(canary.loads, thresholds.minSample, 1);
  const ratioCheck = (
    signal: Finding['signal'],
    name: string,
    [count, clients]: [number, number],
    [canaryRatio, stableRatio]: [number, number],
    points: number,
  ) => {
    if (count / denominator - stableRatio <= points / 100 || clients < thresholds.minClients) return;
    found.push({
      signal,
      reason:
        `${name} ${percent(canaryRatio)} (${count} of ${canary.loads} loads, from ${clients} clients) against ` +
        `stable's ${percent(stableRatio)}: more than ${points} points above`,
    });
  };
  ratioCheck(
    'load failures',
    'load-failure ratio',
    [canary.failedLoads, canary.failedClients],
    [canary.loadFailureRatio, stable.loadFailureRatio],
    thresholds.loadFailurePoints,
  );
  ratioCheck(
    'error pages',
    'error-page ratio',
    [canary.errorPages, canary.errorPageClients],
    [canary.errorPageRatio, stable.errorPageRatio],
    thresholds.errorPagePoints,
  );
  if (canary.loads < thresholds.minSample || canary.clients < thresholds.minClients) return found;
  const vitalCheck = (signal: 'LCP' | 'INP', mine?: number, theirs?: number, pct = 0, ms = 0) => {
    if (mine === undefined || theirs === undefined) return;
    if (mine > theirs * (1 + pct / 100) && mine - theirs > ms) {
      found.push({
        signal,
        reason: `p75 ${signal} ${mine} ms against stable's ${theirs} ms: more than ${pct} % and ${ms} ms above`,
      });
    }
  };
  vitalCheck('LCP', canary.lcpP75Ms, stable.lcpP75Ms, thresholds.lcpPercent, thresholds.lcpMs);
  vitalCheck('INP', canary.inpP75Ms, stable.inpP75Ms, thresholds.inpPercent, thresholds.inpMs);
  return found;
}

/** Why the canary is worse than stable beyond the thresholds (`findings`' reasons); empty when it is not. */
export function judge(canary: BuildFigures, stable: BuildFigures, thresholds: Thresholds): string[] {
  return findings(canary, stable, thresholds).map((finding) => finding.reason);
}

/** The figures of both builds and the verdict. */
export async function analyseCanary(options: AnalysisOptions): Promise<Verdict> {
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  const now = options.now ?? Date.now();
  const baselineFrom =
    (options.canaryStart ?? options.since) - (options.baselineLookbackS ?? DEFAULT_BASELINE_LOOKBACK_S) * 1000;
  const timeoutMs = options.timeoutMs ?? QUERY_TIMEOUT_MS;
  let canary: BuildFigures;
  let stable: BuildFigures;
  try {
    [canary, stable] = await Promise.all([
      buildFigures(options.prometheus, options.remote, options.canary, options.since, now, timeoutMs),
      buildFigures(options.prometheus, options.remote, options.stable, baselineFrom, now, timeoutMs),
    ]);
  } catch (error) {
    if (error instanceof PrometheusUnreachable) return { kind: 'unreachable', reason: error.message };
    throw error;
  }
  const found = findings(canary, stable, thresholds);
  if (found.length > 0) {
    const [first] = found;
    const second = found.find((finding) => finding.signal !== first?.signal);
    return {
      kind: 'failing',
      canary,
      stable,
      reasons: found.map((finding) => finding.reason),
      ...(second ? { corroboration: `${first?.signal} and ${second.signal} agree` } : {}),
    };
  }
  if (canary.loads < thresholds.minSample || canary.clients < thresholds.minClients) {
    return {
      kind: 'inconclusive',
      canary,
      stable,
      reason:
        canary.loads < thresholds.minSample
          ? `the canary has ${canary.loads} loads, fewer than the minimum sample of ${thresholds.minSample}`
          : `the canary's loads come from ${canary.clients} clients, fewer than the minimum of ${thresholds.minClients}`,
    };
  }
  return { kind: 'healthy', canary, stable };
}

/** One build's figures in a line: `build c2: 120 loads, 3 failed (2.5 %), …`. */
export function describeFigures(label: string, figures: BuildFigures): string {
  const vital = (value?: number) => (value === undefined ? 'n/a' : `${value} ms`);
  return (
    `${label} ${figures.build}: ${figures.loads} loads from ${figures.clients} clients, ` +
    `${figures.failedLoads} failed (${percent(figures.loadFailureRatio)}, ${figures.failedClients} clients), ` +
    `${figures.errorPages} error pages (${percent(figures.errorPageRatio)}, ${figures.errorPageClients} clients), ` +
    `${figures.pageViews} page views, ` +
    `p75 LCP ${vital(figures.lcpP75Ms)}, p75 INP ${vital(figures.inpP75Ms)}`
  );
}
