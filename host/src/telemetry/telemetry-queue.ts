/**
 * The page's telemetry events, queued and sent to the API in small batches: when the page is
 * hidden or left (the last moment a browser reliably sends anything), and at most
 * TELEMETRY_FLUSH_MS after the first event waiting. At most TELEMETRY_MAX_EVENTS wait (the oldest
 * go first) and a batch stays under TELEMETRY_MAX_BYTES. `navigator.sendBeacon` sends it, a
 * text/plain body the browser delivers even as the page goes away; where there is none, or it
 * declines, a `keepalive` fetch. Both are looked up as a batch is sent, so a test that wraps them
 * sees every body. Each batch carries the page's ticket, on whose word alone the API labels its
 * events with builds. Nothing here ever fails the page: a batch that cannot be sent is dropped
 * without a word, telemetry being no concern of the visitor's console.
 */
import type { TelemetryBatch, TelemetryEvent } from 'shared/telemetry';
import { TELEMETRY_FLUSH_MS, TELEMETRY_MAX_BYTES, TELEMETRY_MAX_EVENTS } from 'shared/telemetry-values';

export interface TelemetryQueue {
  record(event: TelemetryEvent): void;
  /** Sends what waits, now. */
  flush(): void;
  /** Runs `record` as the page is hidden or left, just before what waits is sent. */
  beforeLeaving(record: () => void): void;
}

/**
 * The events as batch bodies of at most TELEMETRY_MAX_EVENTS events and TELEMETRY_MAX_BYTES
 * each, in order: halved until they fit (every value is ASCII, so a character is a byte). An
 * event too big on its own is left out.
 */
export function batchesOf(host: string, events: TelemetryEvent[], ticket?: string): string[] {
  if (events.length === 0) return [];
  const body = JSON.stringify({ host, ...(ticket ? { ticket } : {}), events } satisfies TelemetryBatch);
  if (body.length <= TELEMETRY_MAX_BYTES && events.length <= TELEMETRY_MAX_EVENTS) return [body];
  if (events.length === 1) return [];
  const half = events.length >> 1;
  return [...batchesOf(host, events.slice(0, half), ticket), ...batchesOf(host, events.slice(half), ticket)];
}

function send(url: string, body: string): void {
  try {
    if (!navigator.sendBeacon?.(url, body)) {
      fetch(url, {
        method: 'POST',
        body,
        keepalive: true,
        credentials: 'omit',
        headers: { 'content-type': 'text/plain' },
      }).catch(() => undefined);
    }
  } catch {
    // dropped
  }
}

/** `ticket`: the page's ticket as it is when a batch is sent (page-ticket.ts). */
export function createTelemetryQueue(
  url: string,
  host: string,
  ticket: () => string | undefined = () => undefined,
): TelemetryQueue {
  let queue: TelemetryEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const leaving: Array<() => void> = [];

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    const events = queue;
    queue = [];
    for (const body of batchesOf(host, events, ticket())) send(url, body);
  }

  const leave = () => {
    for (const record of leaving) record();
    flush();
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave();
  });
  window.addEventListener('pagehide', leave);
  return {
    record(event) {
      queue.push(event);
      if (queue.length > TELEMETRY_MAX_EVENTS) queue.shift();
      timer ??= setTimeout(flush, TELEMETRY_FLUSH_MS);
    },
    flush,
    beforeLeaving: (record) => leaving.push(record),
  };
}
