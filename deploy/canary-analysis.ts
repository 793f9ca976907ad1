/**
 * Judges a canary build against its remote's stable build from what visitors' browsers reported,
 * as Prometheus holds it: the release run (release.ts) asks after each step whether to go on.
 * The stable build's window starts before the canary did (at 100 % it has no visitors of its own);
 * a ratio decides only with `minClients` distinct clients behind it. See
 * docs/decisions/0037-every-canary-has-a-judge.md.
 */
import { FAILED_LOAD_OUTCOMES, METRIC } from 'shared/telemetry';

export interface Thresholds {
  /** Points of 100 above stable's ratio. */
  loadFailurePoints: number;
  errorPagePoints: number;
  /** Failing when p75 LCP is this many percent and `lcpMs` above stable's. */
  lcpPercent: number;
  lcpMs: number;
  inpPercent: number;
  inpMs: number;
  minSample: number;
  /** Fewer clients behind the canary's loads give `inconclusive`; behind its failures, fail nothing. */
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

export const DEFAULT_BASELINE_LOOKBACK_S = 10 * 60;
/** Prometheus needs a few scrapes in a range. */
const MIN_WINDOW_S = 5;
export const QUERY_TIMEOUT_MS = 10_000;

export interface BuildFigures {
  build: string;
  loads: number;
  failedLoads: number;
  errorPages: number;
  pageViews: number;
  /** Each counted once per process and 10 minutes. */
  clients: number;
  failedClients: number;
  errorPageClients: number;
  loadFailureRatio: number;
  errorPageRatio: number;
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
      corroboration?: string;
    }
  | { kind: 'inconclusive'; canary: BuildFigures; stable: BuildFigures; reason: string }
  | { kind: 'unreachable'; reason: string };

export interface AnalysisOptions {
  prometheus: string;
  remote: string;
  stable: string;
  canary: string;
  since: number;
  canaryStart?: number;
  baselineLookbackS?: number;
  thresholds?: Partial<Thresholds>;
  now?: number;
  timeoutMs?: number;
}

export class PrometheusUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrometheusUnreachable';
  }
}

function quote(value: string): string {
  return JSON.stringify(value);
}

/**
 * A series born inside the window counts at its whole value: `increase()` would miss a young
 * canary's first failures (recording.rules.yml explains the terms).
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

function windowOf(fromMs: number, toMs: number): string {
  return `${Math.max(MIN_WINDOW_S, Math.ceil((toMs - fromMs) / 1000))}s`;
}

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
  /** Increases are extrapolated at the window's edges: whole numbers are what happened. */
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

export interface Finding {
  signal: 'load failures' | 'error pages' | 'LCP' | 'INP';
  reason: string;
}

/**
 * Below `minSample` loads a ratio counts the failures over `minSample` (as if the loads to come all
 * succeeded), so a young canary fails only when its failures already decide.
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

export function judge(canary: BuildFigures, stable: BuildFigures, thresholds: Thresholds): string[] {
  return findings(canary, stable, thresholds).map((finding) => finding.reason);
}

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
