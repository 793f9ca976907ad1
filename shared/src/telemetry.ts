/**
 * What the host's page reports about itself (`POST /api/telemetry`) and the names Prometheus
 * shows it under: plain values, so the page reads them without zod (the batch's schema is in
 * `api/contract.ts`). Every label value comes from a set known here or published by a deploy
 * (build ids); none carries an id, an email, a voucher code or a cookie.
 */
import { REMOTE_NAMES, REMOTES, type RemoteSpec } from './remotes';

export const TELEMETRY_PATH = '/api/telemetry';
/** Where browsers send their own CSP reports (`report-to`, `Reporting-Endpoints`). */
export const CSP_REPORTS_PATH = '/api/telemetry/csp';

/** A batch is sent when the page is hidden, and at most this long after its first event. */
export const TELEMETRY_FLUSH_MS = 30_000;
/** The most events one batch carries; the page drops the oldest beyond it. */
export const TELEMETRY_MAX_EVENTS = 50;
/** The largest body the API takes, batches and CSP reports alike. */
export const TELEMETRY_MAX_BYTES = 16 * 1024;

/** Where a remote's load stood when it ended: its manifest, entry, a chunk, the exposed module, the page's render. */
export const LOAD_PHASES = ['manifest', 'entry', 'chunk', 'expose', 'render'] as const;
export type LoadPhase = (typeof LOAD_PHASES)[number];

/**
 * How it ended: loaded; loaded after a retry; failed; refused because its bytes did not match
 * the integrity its manifest gives; refused because it is not at an allowed origin; timed out.
 */
export const LOAD_OUTCOMES = ['ok', 'recovered', 'failed', 'integrity', 'origin', 'timeout'] as const;
export type LoadOutcome = (typeof LOAD_OUTCOMES)[number];
/** The outcomes that count as a failure in the failure ratio and its alert. */
export const FAILED_LOAD_OUTCOMES: readonly LoadOutcome[] = ['failed', 'integrity', 'origin', 'timeout'];

export const VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];

/** The part of the page that owns what a label describes: a remote, or the host itself. */
export const HOST_PART = 'host';
export const PARTS = [HOST_PART, ...REMOTE_NAMES] as const;
export type PartName = (typeof PARTS)[number];

/**
 * Marks the element that wraps a remote's part of the page, in the app and in the HTML the host's
 * server prerenders, its value the remote's name: a Core Web Vital is attributed to the part whose
 * element holds the node it names.
 */
export const PART_ATTRIBUTE = 'data-part';

/** A build id the page does not know (a manifest without one). */
export const UNKNOWN_BUILD = 'unknown';
/** A value outside the known set, as the API labels it. */
export const OTHER = 'other';

/** The route the host shows for a path no route matches. */
export const NOT_FOUND_ROUTE = '*';
/** Every route pattern: the registry's, and the host's not-found route. */
export const ROUTE_PATTERNS: readonly string[] = [
  ...REMOTE_NAMES.flatMap((name) =>
    Object.values((REMOTES[name] as RemoteSpec).exposes).flatMap((module) => module.routes.map((route) => route.path)),
  ),
  NOT_FOUND_ROUTE,
];

/** The CSP directives a violation is labelled with; another is `other`. */
export const CSP_DIRECTIVES = [
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'font-src',
  'connect-src',
  'frame-src',
  'frame-ancestors',
  'media-src',
  'object-src',
  'worker-src',
  'manifest-src',
  'form-action',
  'base-uri',
  'default-src',
  'require-trusted-types-for',
  'trusted-types',
] as const;

/** What a violation blocked, when it is not a URL: the browser's own words for it. */
export const CSP_BLOCKED_KEYWORDS = [
  'inline',
  'eval',
  'wasm-eval',
  'data',
  'blob',
  'self',
  'trusted-types-sink',
] as const;

/** One remote load (`phase`: where it ended), as the host's loader saw it. */
export interface LoadEvent {
  kind: 'load';
  remote: string;
  build: string;
  phase: LoadPhase;
  outcome: LoadOutcome;
  /** From the load's start to its end, retries included. */
  ms: number;
}

/** The reload guard reloaded the page after a failed download. */
export interface ReloadEvent {
  kind: 'reload';
  route: string;
  remote: string;
  build: string;
}

/** The visitor was shown an error page. */
export interface ErrorPageEvent {
  kind: 'error-page';
  route: string;
  status: number;
  /** The remote of the route, or the host. */
  remote: string;
}

/** A Core Web Vital of one page view, attributed to the part that owns it. */
export interface VitalEvent {
  kind: 'vital';
  name: VitalName;
  /** Milliseconds; CLS unitless. */
  value: number;
  route: string;
  remote: string;
  build: string;
}

/** A content security policy violation the page saw. */
export interface CspEvent {
  kind: 'csp';
  route: string;
  directive: string;
  /** The blocked URL's origin, or a keyword (`inline`, `eval`, …). */
  blocked: string;
}

export type TelemetryEvent = LoadEvent | ReloadEvent | ErrorPageEvent | VitalEvent | CspEvent;

export interface TelemetryBatch {
  /** The host's build that sent it. */
  host: string;
  events: TelemetryEvent[];
}

/** Metric names, as Prometheus shows them (deploy/prometheus reads the same). */
export const METRIC = {
  remoteLoads: 'giftbox_remote_loads_total',
  remoteLoadSeconds: 'giftbox_remote_load_duration_seconds',
  reloads: 'giftbox_reloads_total',
  errorPages: 'giftbox_error_pages_total',
  /** LCP, INP, FCP and TTFB (label `metric`), in seconds. */
  webVitalSeconds: 'giftbox_web_vital_seconds',
  /** CLS, unitless. */
  webVitalCls: 'giftbox_web_vital_cls',
  cspViolations: 'giftbox_csp_violations_total',
  telemetryBatches: 'giftbox_telemetry_batches_total',
} as const;
