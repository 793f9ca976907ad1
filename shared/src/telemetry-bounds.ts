/**
 * How many series the API's telemetry can make, per process, from the sets its labels take their
 * values from (telemetry-labels.ts): docs/operations.md states the figure, Prometheus's
 * `sample_limit` for the API is sized on it, and a test of the API holds it to it.
 */
import { CLIENT_SIGNALS, CSP_DIRECTIVES, LOAD_OUTCOMES, METRIC, VITAL_NAMES } from './telemetry';
import {
  BUILD_LABELS_PER_PART,
  ERROR_PAGE_STATUS_LABELS,
  MAX_PARTS,
  REMOTE_LABELS,
  ROUTE_LABELS,
  ROUTE_PART_PAIRS,
} from './telemetry-labels';
import { CSP_BLOCKED_KEYWORDS, LOAD_PHASES } from './telemetry-values';

/** A remote's load takes from tens of milliseconds to its timeout (10 s by default), retries included. */
export const LOAD_BUCKETS = [0.05, 0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 20, 30, 60];
/** Around the Core Web Vitals' thresholds (LCP 2.5 s and 4 s, INP 200 ms and 500 ms, FCP 1.8 s, TTFB 0.8 s). */
export const VITAL_SECONDS_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.2, 1.5, 1.8, 2, 2.5, 3, 4, 5, 7.5, 10, 20];
/** Around CLS's thresholds (0.1 and 0.25). */
export const CLS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1];

export const BATCH_RESULTS = ['accepted', 'invalid', 'too_large', 'limited'] as const;
export const CSP_SOURCES = ['page', 'report'] as const;

/**
 * What a CSP violation's `blocked` can be: an origin of this deployment (each part's, where the
 * API reads its builds, and the API's own: at most one per part and one more), a keyword, `other`.
 */
const CSP_BLOCKED_LABELS = MAX_PARTS + 1 + CSP_BLOCKED_KEYWORDS.length + 1;
/** A histogram's series per label set: one per bucket, `+Inf`, `_sum` and `_count`. */
const histogram = (buckets: readonly number[]) => buckets.length + 3;

export interface MetricBound {
  /** Label sets one deployment of every part can give, each factor a label's set. */
  factors: readonly { label: string; values: number }[];
  seriesPerSet: number;
}

const B = BUILD_LABELS_PER_PART;
const PAIRS = ROUTE_PART_PAIRS;
const REMOTES = REMOTE_LABELS;
const VITALS_IN_SECONDS = VITAL_NAMES.filter((name) => name !== 'CLS').length;

/** Every telemetry metric's bound, by its key in METRIC. */
export const TELEMETRY_BOUNDS: Readonly<Record<keyof typeof METRIC, MetricBound>> = {
  remoteLoads: {
    factors: [
      { label: 'remote', values: REMOTES },
      { label: 'build', values: B },
      { label: 'phase', values: LOAD_PHASES.length },
      { label: 'outcome', values: LOAD_OUTCOMES.length },
    ],
    seriesPerSet: 1,
  },
  remoteLoadSeconds: {
    factors: [
      { label: 'remote', values: REMOTES },
      { label: 'build', values: B },
      { label: 'outcome', values: LOAD_OUTCOMES.length },
    ],
    seriesPerSet: histogram(LOAD_BUCKETS),
  },
  reloads: {
    factors: [
      { label: '(route, remote)', values: PAIRS },
      { label: 'build', values: B },
    ],
    seriesPerSet: 1,
  },
  errorPages: {
    factors: [
      { label: '(route, remote)', values: PAIRS },
      { label: 'status', values: ERROR_PAGE_STATUS_LABELS.length },
      { label: 'build', values: B },
    ],
    seriesPerSet: 1,
  },
  remoteFallbacks: {
    factors: [
      { label: 'remote', values: REMOTES },
      { label: 'from', values: B },
      { label: 'to', values: B },
    ],
    seriesPerSet: 1,
  },
  webVitalSeconds: {
    factors: [
      { label: 'metric', values: VITALS_IN_SECONDS },
      { label: '(route, remote)', values: PAIRS },
      { label: 'build', values: B },
    ],
    seriesPerSet: histogram(VITAL_SECONDS_BUCKETS),
  },
  webVitalCls: {
    factors: [
      { label: '(route, remote)', values: PAIRS },
      { label: 'build', values: B },
    ],
    seriesPerSet: histogram(CLS_BUCKETS),
  },
  cspViolations: {
    factors: [
      { label: 'route', values: ROUTE_LABELS },
      { label: 'directive', values: CSP_DIRECTIVES.length + 1 },
      { label: 'blocked', values: CSP_BLOCKED_LABELS },
      { label: 'source', values: CSP_SOURCES.length },
    ],
    seriesPerSet: 1,
  },
  telemetryBatches: { factors: [{ label: 'result', values: BATCH_RESULTS.length }], seriesPerSet: 1 },
  buildClients: {
    factors: [
      { label: 'remote', values: MAX_PARTS },
      { label: 'build', values: B },
      { label: 'signal', values: CLIENT_SIGNALS.length },
    ],
    seriesPerSet: 1,
  },
};

/**
 * A process keeps the series of a build its part's deployment no longer names until it restarts:
 * each metric may hold as many label sets again as one deployment gives before its cap sends new
 * ones to its one label set of `other`s.
 */
export const LABEL_CAP_FACTOR = 2;

export const labelSetsOf = (bound: MetricBound) => bound.factors.reduce((product, { values }) => product * values, 1);

/** The label sets a metric keeps before new ones go to `other`; the batches' results are fixed. */
export function labelCapOf(metric: keyof typeof METRIC): number {
  const bound = TELEMETRY_BOUNDS[metric];
  return metric === 'telemetryBatches' ? labelSetsOf(bound) : labelSetsOf(bound) * LABEL_CAP_FACTOR;
}

/** The series one deployment of every part can give, every combination sent. */
export function deploymentSeriesOf(metric: keyof typeof METRIC): number {
  const bound = TELEMETRY_BOUNDS[metric];
  return labelSetsOf(bound) * bound.seriesPerSet;
}

/** The most series a metric can have in one process: its cap's label sets and the `other` one. */
export function worstCaseSeriesOf(metric: keyof typeof METRIC): number {
  const bound = TELEMETRY_BOUNDS[metric];
  const overflow = metric === 'telemetryBatches' ? 0 : 1;
  return (labelCapOf(metric) + overflow) * bound.seriesPerSet;
}

/**
 * The API's gauges of each part's running canary (api canary-gauges.ts), from the deployments it
 * reads, not from browsers: one series per part, its canary running now and no other.
 */
export const CANARY_GAUGE_NAMES = {
  started: 'giftbox_canary_started_timestamp_seconds',
  judged: 'giftbox_canary_judged_timestamp_seconds',
} as const;
export const CANARY_GAUGE_BOUND: MetricBound = {
  factors: [{ label: '(remote, build)', values: MAX_PARTS }],
  seriesPerSet: 1,
};
/** The canary gauges' series: each gauge's label sets, never more, as each scrape starts afresh. */
export const CANARY_GAUGE_SERIES = Object.keys(CANARY_GAUGE_NAMES).length * labelSetsOf(CANARY_GAUGE_BOUND);

const METRICS = Object.keys(METRIC) as (keyof typeof METRIC)[];
const sum = (of: (metric: keyof typeof METRIC) => number) => METRICS.reduce((total, metric) => total + of(metric), 0);

/** The telemetry series of one API process with every combination of one deployment sent, canary gauges included. */
export const TELEMETRY_DEPLOYMENT_SERIES = sum(deploymentSeriesOf) + CANARY_GAUGE_SERIES;
/** The most telemetry series one API process can have, whatever it is sent, canary gauges included. */
export const TELEMETRY_WORST_CASE_SERIES = sum(worstCaseSeriesOf) + CANARY_GAUGE_SERIES;
