/**
 * The telemetry contract's plain values that the host's page reads at run time: where and how
 * much it sends, the phases of a load, the parts of a page and the labels for what is unknown.
 * Apart from the rest of the contract (telemetry.ts, which re-exports these), so that the page
 * carries none of what only the servers read (the metric names, the directives the API knows):
 * a `shared` module reaches the browser whole.
 */
import { REMOTE_NAMES } from './remotes';

export const TELEMETRY_PATH = '/api/telemetry';

/** A batch is sent when the page is hidden, and at most this long after its first event. */
export const TELEMETRY_FLUSH_MS = 30_000;
/** The most events one batch carries; the page drops the oldest beyond it. */
export const TELEMETRY_MAX_EVENTS = 50;
/** The largest body the API takes, batches and CSP reports alike. */
export const TELEMETRY_MAX_BYTES = 16 * 1024;
/**
 * The longest page ticket the API reads (server/src/page-ticket.ts): one for every remote a
 * configuration may compose, each with the longest name and build ids, fits under it.
 */
export const MAX_TICKET_LENGTH = 8 * 1024;

/** Where a remote's load stood when it ended: its manifest, entry, a chunk, the exposed module, the page's render. */
export const LOAD_PHASES = ['manifest', 'entry', 'chunk', 'expose', 'render'] as const;
export type LoadPhase = (typeof LOAD_PHASES)[number];

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

/**
 * The cookie the host's server sets on each page it sends: the page's telemetry ticket (signed
 * by the server, server/page-ticket.ts), which the page reads once as it starts, removes, and
 * sends with its batches. The API labels a build only on a ticket's word.
 */
export const PAGE_TICKET_COOKIE = 'gb_ticket';
/** How long the ticket's cookie lives: only until the page's script has read it. */
export const PAGE_TICKET_COOKIE_MAX_AGE_S = 120;
