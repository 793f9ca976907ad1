/** Telemetry values the page reads, apart from telemetry.ts so it carries nothing only servers read. */
import { REMOTE_NAMES } from './remotes';

export const TELEMETRY_PATH = '/api/telemetry';

/** At most this long after a batch's first event, and when the page is hidden. */
export const TELEMETRY_FLUSH_MS = 30_000;
export const TELEMETRY_MAX_EVENTS = 50;
export const TELEMETRY_MAX_BYTES = 16 * 1024;
export const MAX_TICKET_LENGTH = 8 * 1024;

export const LOAD_PHASES = ['manifest', 'entry', 'chunk', 'expose', 'render'] as const;
export type LoadPhase = (typeof LOAD_PHASES)[number];

export const HOST_PART = 'host';
export const PARTS = [HOST_PART, ...REMOTE_NAMES] as const;
export type PartName = (typeof PARTS)[number];

/** Wraps a remote's part of the page: a Core Web Vital goes to the part holding its node. */
export const PART_ATTRIBUTE = 'data-part';

export const UNKNOWN_BUILD = 'unknown';
export const OTHER = 'other';

export const NOT_FOUND_ROUTE = '*';

export const CSP_BLOCKED_KEYWORDS = [
  'inline',
  'eval',
  'wasm-eval',
  'data',
  'blob',
  'self',
  'trusted-types-sink',
] as const;

/** The page's ticket, signed by the host's server: the API labels builds only on its word. */
export const PAGE_TICKET_COOKIE = 'gb_ticket';
export const PAGE_TICKET_COOKIE_MAX_AGE_S = 120;
