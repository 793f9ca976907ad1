/**
 * What the host's pages report, as series (names from shared/telemetry's METRIC). Every label
 * value is from a known set: the schema's enums, published build ids, CSP directives and origins
 * of this deployment; anything else is `other`.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { METRIC } from 'shared/telemetry';

export const BATCH_RESULTS = ['accepted', 'invalid', 'too_large', 'limited'] as const;
export type BatchResult = (typeof BATCH_RESULTS)[number];

/** A remote's load takes from tens of milliseconds to its timeout (10 s by default), retries included. */
const LOAD_BUCKETS = [0.05, 0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 20, 30, 60];
/** Around the Core Web Vitals' thresholds (LCP 2.5 s and 4 s, INP 200 ms and 500 ms, FCP 1.8 s, TTFB 0.8 s). */
const VITAL_SECONDS_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.2, 1.5, 1.8, 2, 2.5, 3, 4, 5, 7.5, 10, 20];
/** Around CLS's thresholds (0.1 and 0.25). */
const CLS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1];

export interface TelemetryMetrics {
  remoteLoads: Counter<'remote' | 'build' | 'phase' | 'outcome'>;
  remoteLoadSeconds: Histogram<'remote' | 'build' | 'outcome'>;
  reloads: Counter<'route' | 'remote' | 'build'>;
  errorPages: Counter<'route' | 'status' | 'remote' | 'build'>;
  remoteFallbacks: Counter<'remote' | 'from' | 'to'>;
  webVitalSeconds: Histogram<'metric' | 'route' | 'remote' | 'build'>;
  webVitalCls: Histogram<'route' | 'remote' | 'build'>;
  cspViolations: Counter<'route' | 'directive' | 'blocked' | 'source'>;
  batches: Counter<'result'>;
}

export function createTelemetryMetrics(registry: Registry): TelemetryMetrics {
  const registers = [registry];
  const batches = new Counter({
    name: METRIC.telemetryBatches,
    help: 'Telemetry batches and CSP report posts received, by result: accepted, invalid (400), too_large (413), limited (429).',
    labelNames: ['result'],
    registers,
  });
  // Every result from zero, so a rate over them exists before the first refusal.
  for (const result of BATCH_RESULTS) batches.inc({ result }, 0);
  return {
    batches,
    remoteLoads: new Counter({
      name: METRIC.remoteLoads,
      help: 'Remote loads the host’s pages reported, by remote, build, the phase the load ended in and its outcome.',
      labelNames: ['remote', 'build', 'phase', 'outcome'],
      registers,
    }),
    remoteLoadSeconds: new Histogram({
      name: METRIC.remoteLoadSeconds,
      help: 'How long a remote’s load took in the browser, retries included, by remote, build and outcome.',
      labelNames: ['remote', 'build', 'outcome'],
      buckets: LOAD_BUCKETS,
      registers,
    }),
    reloads: new Counter({
      name: METRIC.reloads,
      help: 'Pages the reload guard reloaded after a failed download, by route pattern, remote and build.',
      labelNames: ['route', 'remote', 'build'],
      registers,
    }),
    errorPages: new Counter({
      name: METRIC.errorPages,
      help: 'Error pages shown to visitors, by route pattern, status, the part that owns the route and the build of it the page ran.',
      labelNames: ['route', 'status', 'remote', 'build'],
      registers,
    }),
    remoteFallbacks: new Counter({
      name: METRIC.remoteFallbacks,
      help: 'Pages that switched a remote to its last known good build after its own failed to load, by remote, the failed build (from) and the one switched to (to).',
      labelNames: ['remote', 'from', 'to'],
      registers,
    }),
    webVitalSeconds: new Histogram({
      name: METRIC.webVitalSeconds,
      help: 'Core Web Vitals in seconds (metric LCP, INP, FCP, TTFB), by route pattern and the part and build that own them.',
      labelNames: ['metric', 'route', 'remote', 'build'],
      buckets: VITAL_SECONDS_BUCKETS,
      registers,
    }),
    webVitalCls: new Histogram({
      name: METRIC.webVitalCls,
      help: 'Cumulative Layout Shift (unitless), by route pattern and the part and build its largest shift belongs to.',
      labelNames: ['route', 'remote', 'build'],
      buckets: CLS_BUCKETS,
      registers,
    }),
    cspViolations: new Counter({
      name: METRIC.cspViolations,
      help: 'Content security policy violations by route pattern, directive, what was blocked (an origin of this site, a keyword, or other) and who told (source: the page while the app runs, or the browser’s own report, which also sees what happens before the app starts: one violation may be told by both).',
      labelNames: ['route', 'directive', 'blocked', 'source'],
      registers,
    }),
  };
}
