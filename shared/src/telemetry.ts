/**
 * What the host's page reports and the names Prometheus shows it under: plain values, so the page
 * needs no zod. Label values come from known sets; none carries an id, email, code or cookie.
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

export const CSP_REPORTS_PATH = '/api/telemetry/csp';

export const LOAD_OUTCOMES = ['ok', 'recovered', 'failed', 'integrity', 'origin', 'timeout'] as const;
export type LoadOutcome = (typeof LOAD_OUTCOMES)[number];
export const FAILED_LOAD_OUTCOMES: readonly LoadOutcome[] = ['failed', 'integrity', 'origin', 'timeout'];

export const VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];

export const ROUTE_OWNERS: ReadonlyMap<string, PartName> = new Map<string, PartName>([
  ...REMOTE_NAMES.flatMap((name) =>
    Object.values((REMOTES[name] as RemoteSpec).exposes).flatMap((module) =>
      module.routes.map((route): [string, PartName] => [route.path, name]),
    ),
  ),
  [NOT_FOUND_ROUTE, HOST_PART],
]);

export const ROUTE_PATTERNS: readonly string[] = [...ROUTE_OWNERS.keys()];

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

export interface LoadEvent {
  kind: 'load';
  remote: string;
  build: string;
  phase: LoadPhase;
  outcome: LoadOutcome;
  ms: number;
}

export interface ReloadEvent {
  kind: 'reload';
  route: string;
  remote: string;
  build: string;
}

export interface ErrorPageEvent {
  kind: 'error-page';
  route: string;
  status: number;
  remote: string;
  /** Absent from older pages: labelled `unknown`. */
  build?: string;
}

/** The page switched to a remote's last known good build; the failed load is reported too. */
export interface FallbackEvent {
  kind: 'fallback';
  remote: string;
  from: string;
  to: string;
}

export interface VitalEvent {
  kind: 'vital';
  name: VitalName;
  /** Milliseconds; CLS unitless. */
  value: number;
  route: string;
  remote: string;
  build: string;
}

export interface CspEvent {
  kind: 'csp';
  route: string;
  directive: string;
  blocked: string;
}

export type TelemetryEvent = LoadEvent | ReloadEvent | ErrorPageEvent | FallbackEvent | VitalEvent | CspEvent;

export interface TelemetryBatch {
  host: string;
  /** Without it, no event is labelled with a build. */
  ticket?: string;
  events: TelemetryEvent[];
}

export const METRIC = {
  remoteLoads: 'giftbox_remote_loads_total',
  remoteLoadSeconds: 'giftbox_remote_load_duration_seconds',
  reloads: 'giftbox_reloads_total',
  errorPages: 'giftbox_error_pages_total',
  remoteFallbacks: 'giftbox_remote_fallbacks_total',
  /** In seconds. */
  webVitalSeconds: 'giftbox_web_vital_seconds',
  webVitalCls: 'giftbox_web_vital_cls',
  cspViolations: 'giftbox_csp_violations_total',
  telemetryBatches: 'giftbox_telemetry_batches_total',
  /**
   * Distinct clients (hashed addresses) behind a build's signal, counted again only after
   * CLIENT_WINDOW_MS: one client can send many events.
   */
  buildClients: 'giftbox_build_clients_total',
} as const;

export const CLIENT_SIGNALS = ['load', 'failed', 'error_page'] as const;
export type ClientSignal = (typeof CLIENT_SIGNALS)[number];
export const CLIENT_WINDOW_MS = 10 * 60_000;
