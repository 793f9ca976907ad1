/**
 * What the host's page reports about itself (`POST /api/telemetry`) and the names Prometheus
 * shows it under: plain values, so the page reads them without zod (the batch's schema is in
 * `api/contract.ts`). Every label value comes from a set known here or published by a deploy
 * (build ids); none carries an id, an email, a voucher code or a cookie. The page itself takes
 * its values from telemetry-values.ts (re-exported here) and only types from this module.
 */
import { REMOTE_NAMES, REMOTES, type RemoteSpec } from './remotes';
import { HOST_PART, NOT_FOUND_ROUTE, type LoadPhase, type PartName } from './telemetry-values';

export {
  CSP_BLOCKED_KEYWORDS,
  HOST_PART,
  LOAD_PHASES,
  MAX_TICKET_LENGTH,
  NOT_FOUND_ROUTE,
  OTHER,
  PART_ATTRIBUTE,
  PARTS,
  TELEMETRY_FLUSH_MS,
  TELEMETRY_MAX_BYTES,
  TELEMETRY_MAX_EVENTS,
  TELEMETRY_PATH,
  UNKNOWN_BUILD,
  type LoadPhase,
  type PartName,
} from './telemetry-values';

/** Where browsers send their own CSP reports (`report-to`, `Reporting-Endpoints`). */
export const CSP_REPORTS_PATH = '/api/telemetry/csp';

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

/** Every route pattern with the part that owns it: the registry's, each its remote's, and the host's not-found route. */
export const ROUTE_OWNERS: ReadonlyMap<string, PartName> = new Map<string, PartName>([
  ...REMOTE_NAMES.flatMap((name) =>
    Object.values((REMOTES[name] as RemoteSpec).exposes).flatMap((module) =>
      module.routes.map((route): [string, PartName] => [route.path, name]),
    ),
  ),
  [NOT_FOUND_ROUTE, HOST_PART],
]);

/** Every route pattern. */
export const ROUTE_PATTERNS: readonly string[] = [...ROUTE_OWNERS.keys()];

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
  /**
   * The build of that remote the page ran (the host's own for the host), so error pages can be
   * told per build. Absent from pages older than it: labelled `unknown`.
   */
  build?: string;
}

/**
 * A remote's build could not be loaded after the retries and the page switched to its last known
 * good build (`remoteFallbacks`). The failed load itself is also reported, as a load of `from`.
 */
export interface FallbackEvent {
  kind: 'fallback';
  remote: string;
  /** The build that failed. */
  from: string;
  /** The build switched to. */
  to: string;
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

export type TelemetryEvent = LoadEvent | ReloadEvent | ErrorPageEvent | FallbackEvent | VitalEvent | CspEvent;

export interface TelemetryBatch {
  /** The host's build that sent it. */
  host: string;
  /** The page's ticket from the host's server (PAGE_TICKET_COOKIE): without it, no event is labelled with a build. */
  ticket?: string;
  events: TelemetryEvent[];
}

/** Metric names, as Prometheus shows them (deploy/prometheus reads the same). */
export const METRIC = {
  remoteLoads: 'giftbox_remote_loads_total',
  remoteLoadSeconds: 'giftbox_remote_load_duration_seconds',
  reloads: 'giftbox_reloads_total',
  errorPages: 'giftbox_error_pages_total',
  /** Switches to a remote's last known good build, by remote and the builds from and to. */
  remoteFallbacks: 'giftbox_remote_fallbacks_total',
  /** LCP, INP, FCP and TTFB (label `metric`), in seconds. */
  webVitalSeconds: 'giftbox_web_vital_seconds',
  /** CLS, unitless. */
  webVitalCls: 'giftbox_web_vital_cls',
  cspViolations: 'giftbox_csp_violations_total',
  telemetryBatches: 'giftbox_telemetry_batches_total',
  /**
   * Distinct clients (hashed addresses) that reported a build, by part, build and signal (a load,
   * a failed load, an error page), each counted once by an API process, and again only
   * CLIENT_WINDOW_MS after it last was: what a judgement needs besides the events, since one
   * client can send many.
   */
  buildClients: 'giftbox_build_clients_total',
} as const;

/** What a client is counted for in METRIC.buildClients. */
export const CLIENT_SIGNALS = ['load', 'failed', 'error_page'] as const;
export type ClientSignal = (typeof CLIENT_SIGNALS)[number];
/** A client is counted once per part, build and signal in each window this long. */
export const CLIENT_WINDOW_MS = 10 * 60_000;
