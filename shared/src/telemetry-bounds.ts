/**
 * How many series the API's telemetry can make per process: docs/operations.md states the figure
 * and Prometheus's `sample_limit` for the API is sized on it.
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

export const LOAD_BUCKETS = [0.05, 0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 20, 30, 60];
/** Around the Core Web Vitals' thresholds. */
export const VITAL_SECONDS_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.2, 1.5, 1.8, 2, 2.5, 3, 4, 5, 7.5, 10, 20];
export const CLS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1];

export const BATCH_RESULTS = ['accepted', 'invalid', 'too_large', 'limited'] as const;
export const CSP_SOURCES = ['page', 'report'] as const;

/** An origin of this deployment (one per part and the API's), a keyword, or `other`. */
const CSP_BLOCKED_LABELS = MAX_PARTS + 1 + CSP_BLOCKED_KEYWORDS.length + 1;
const histogram = (buckets: readonly number[]) => buckets.length + 3;

export interface MetricBound {
  factors: readonly { label: string; values: number }[];
  seriesPerSet: number;
}

const B = BUILD_LABELS_PER_PART;
const PAIRS = ROUTE_PART_PAIRS;
const REMOTES = REMOTE_LABELS;
const VITALS_IN_SECONDS = VITAL_NAMES.filter((name) => name !== 'CLS').length;

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

/** A process keeps a build's series until it restarts: room for twice one deployment's label sets. */
export const LABEL_CAP_FACTOR = 2;

export const labelSetsOf = (bound: MetricBound) => bound.factors.reduce((product, { values }) => product * values, 1);

export function labelCapOf(metric: keyof typeof METRIC): number {
  const bound = TELEMETRY_BOUNDS[metric];
  return metric === 'telemetryBatches' ? labelSetsOf(bound) : labelSetsOf(bound) * LABEL_CAP_FACTOR;
}

export function deploymentSeriesOf(metric: keyof typeof METRIC): number {
  const bound = TELEMETRY_BOUNDS[metric];
  return labelSetsOf(bound) * bound.seriesPerSet;
}

export function worstCaseSeriesOf(metric: keyof typeof METRIC): number {
  const bound = TELEMETRY_BOUNDS[metric];
  const overflow = metric === 'telemetryBatches' ? 0 : 1;
  return (labelCapOf(metric) + overflow) * bound.seriesPerSet;
}

export const CANARY_GAUGE_NAMES = {
  started: 'giftbox_canary_started_timestamp_seconds',
  judged: 'giftbox_canary_judged_timestamp_seconds',
} as const;
export const CANARY_GAUGE_BOUND: MetricBound = {
  factors: [{ label: '(remote, build)', values: MAX_PARTS }],
  seriesPerSet: 1,
};
export const CANARY_GAUGE_SERIES = Object.keys(CANARY_GAUGE_NAMES).length * labelSetsOf(CANARY_GAUGE_BOUND);

const METRICS = Object.keys(METRIC) as (keyof typeof METRIC)[];
const sum = (of: (metric: keyof typeof METRIC) => number) => METRICS.reduce((total, metric) => total + of(metric), 0);

export const TELEMETRY_DEPLOYMENT_SERIES = sum(deploymentSeriesOf) + CANARY_GAUGE_SERIES;
export const TELEMETRY_WORST_CASE_SERIES = sum(worstCaseSeriesOf) + CANARY_GAUGE_SERIES;
