/**
 * Telemetry events sent in small batches, by `sendBeacon` (delivered as the page goes away) or a
 * `keepalive` fetch, when the page is hidden (the last moment a browser reliably sends) or
 * TELEMETRY_FLUSH_MS after the first. A batch that cannot be sent is dropped without a word.
 */
import type { TelemetryBatch, TelemetryEvent } from 'shared/telemetry';
import { TELEMETRY_FLUSH_MS, TELEMETRY_MAX_BYTES, TELEMETRY_MAX_EVENTS } from 'shared/telemetry-values';

export interface TelemetryQueue {
  record(event: TelemetryEvent): void;
  flush(): void;
  /** Runs `record` as the page is hidden or left, just before what waits is sent. */
  beforeLeaving(record: () => void): void;
}

/** Halved until they fit (every value is ASCII: a character is a byte). */
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

/** `ticket` is read as a batch is sent. */
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
