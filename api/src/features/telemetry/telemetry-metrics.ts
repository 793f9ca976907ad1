/**
 * What the host's pages report, as series (names from shared/telemetry's METRIC). Every label
 * value is from a set of known size (shared/telemetry-labels): the schema's enums, a route with
 * the part that owns it, the builds each part's deployment names, CSP directives and origins of
 * this deployment; anything else is `other`. Each metric also holds at most its cap of label
 * sets (label-cap.ts), so a process's series stay within shared/telemetry-bounds' figure.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { METRIC } from 'shared/telemetry';
import { BATCH_RESULTS, CLS_BUCKETS, labelCapOf, LOAD_BUCKETS, VITAL_SECONDS_BUCKETS } from 'shared/telemetry-bounds';
import {
  type CapLog,
  cappedCounter,
  type CappedCounter,
  cappedHistogram,
  type CappedHistogram,
  LabelCap,
} from './label-cap';

export type BatchResult = (typeof BATCH_RESULTS)[number];

export interface TelemetryMetrics {
  remoteLoads: CappedCounter<'remote' | 'build' | 'phase' | 'outcome'>;
  remoteLoadSeconds: CappedHistogram<'remote' | 'build' | 'outcome'>;
  reloads: CappedCounter<'route' | 'remote' | 'build'>;
  errorPages: CappedCounter<'route' | 'status' | 'remote' | 'build'>;
  remoteFallbacks: CappedCounter<'remote' | 'from' | 'to'>;
  webVitalSeconds: CappedHistogram<'metric' | 'route' | 'remote' | 'build'>;
  webVitalCls: CappedHistogram<'route' | 'remote' | 'build'>;
  cspViolations: CappedCounter<'route' | 'directive' | 'blocked' | 'source'>;
  buildClients: CappedCounter<'remote' | 'build' | 'signal'>;
  batches: Counter<'result'>;
}

type Key = keyof typeof METRIC;

interface Spec<L extends string> {
  help: string;
  labelNames: L[];
}

export function createTelemetryMetrics(registry: Registry, log: CapLog): TelemetryMetrics {
  const registers = [registry];
  const capOf = <L extends string>(key: Key, labelNames: L[]) =>
    new LabelCap<L>(METRIC[key], labelNames, labelCapOf(key), log);
  const counter = <L extends string>(key: Key, { help, labelNames }: Spec<L>) =>
    cappedCounter(new Counter({ name: METRIC[key], help, labelNames, registers }), capOf(key, labelNames));
  const histogram = <L extends string>(key: Key, { help, labelNames }: Spec<L>, buckets: number[]) =>
    cappedHistogram(new Histogram({ name: METRIC[key], help, labelNames, buckets, registers }), capOf(key, labelNames));

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
    remoteLoads: counter('remoteLoads', {
      help: 'Remote loads the host’s pages reported, by remote, build, the phase the load ended in and its outcome.',
      labelNames: ['remote', 'build', 'phase', 'outcome'],
    }),
    remoteLoadSeconds: histogram(
      'remoteLoadSeconds',
      {
        help: 'How long a remote’s load took in the browser, retries included, by remote, build and outcome.',
        labelNames: ['remote', 'build', 'outcome'],
      },
      LOAD_BUCKETS,
    ),
    reloads: counter('reloads', {
      help: 'Pages the reload guard reloaded after a failed download, by route pattern, remote and build.',
      labelNames: ['route', 'remote', 'build'],
    }),
    errorPages: counter('errorPages', {
      help: 'Error pages shown to visitors, by route pattern, status (404, 429, 500, 503, else its class 4xx or 5xx), the part that owns the route and the build of it the page ran.',
      labelNames: ['route', 'status', 'remote', 'build'],
    }),
    remoteFallbacks: counter('remoteFallbacks', {
      help: 'Pages that switched a remote to its last known good build after its own failed to load, by remote, the failed build (from) and the one switched to (to).',
      labelNames: ['remote', 'from', 'to'],
    }),
    webVitalSeconds: histogram(
      'webVitalSeconds',
      {
        help: 'Core Web Vitals in seconds (metric LCP, INP, FCP, TTFB), by route pattern and the part and build that own them.',
        labelNames: ['metric', 'route', 'remote', 'build'],
      },
      VITAL_SECONDS_BUCKETS,
    ),
    webVitalCls: histogram(
      'webVitalCls',
      {
        help: 'Cumulative Layout Shift (unitless), by route pattern and the part and build its largest shift belongs to.',
        labelNames: ['route', 'remote', 'build'],
      },
      CLS_BUCKETS,
    ),
    cspViolations: counter('cspViolations', {
      help: 'Content security policy violations by route pattern, directive, what was blocked (an origin of this site, a keyword, or other) and who told (source: the page while the app runs, or the browser’s own report, which also sees what happens before the app starts: one violation may be told by both).',
      labelNames: ['route', 'directive', 'blocked', 'source'],
    }),
    buildClients: counter('buildClients', {
      help: 'Distinct clients (hashed addresses) that reported a build of a part, by part (remote), build and signal (load, failed, error_page), each counted once by each API process, and again only 10 minutes after it last was; only reports a page ticket vouches for.',
      labelNames: ['remote', 'build', 'signal'],
    }),
  };
}
