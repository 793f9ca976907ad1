/**
 * The page's telemetry events, queued and sent to the API in small batches: when the page is
 * hidden or left (the last moment a browser reliably sends anything), and at most
 * TELEMETRY_FLUSH_MS after the first event waiting. At most TELEMETRY_MAX_EVENTS wait (the oldest
 * go first) and a batch stays under TELEMETRY_MAX_BYTES. `navigator.sendBeacon` sends it, a
 * text/plain body the browser delivers even as the page goes away; where there is none, or it
 * declines, a `keepalive` fetch. Nothing here ever fails the page: a batch that cannot be sent is
 * dropped.
 */
import {
  TELEMETRY_FLUSH_MS,
  TELEMETRY_MAX_BYTES,
  TELEMETRY_MAX_EVENTS,
  type TelemetryBatch,
  type TelemetryEvent,
} from 'shared/telemetry';

/** Dispatched on the document with each body sent (`detail`): what the page reported, for whoever watches. */
export const TELEMETRY_SENT_EVENT = 'p-telemetry-sent';

export interface SendDeps {
  sendBeacon?: (url: string, body: string) => boolean;
  fetch: typeof fetch;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** Calls `listener` whenever the page is hidden or left. */
  onHidden: (listener: () => void) => void;
  /** Told of each body sent. */
  sent?: (body: string) => void;
}

export interface TelemetryQueue {
  record(event: TelemetryEvent): void;
  /** Sends what waits, now. */
  flush(): void;
}

export function browserSendDeps(): SendDeps {
  return {
    sendBeacon: typeof navigator.sendBeacon === 'function' ? (url, body) => navigator.sendBeacon(url, body) : undefined,
    fetch: (...args) => window.fetch(...args),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    onHidden(listener) {
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden') listener();
      });
      window.addEventListener('pagehide', listener);
    },
    sent: (body) => document.dispatchEvent(new CustomEvent(TELEMETRY_SENT_EVENT, { detail: body })),
  };
}

/**
 * The events as batch bodies of at most TELEMETRY_MAX_EVENTS events and TELEMETRY_MAX_BYTES
 * each, in order; an event too big for any is left out.
 */
export function batchesOf(host: string, events: readonly TelemetryEvent[]): string[] {
  const body = (list: TelemetryEvent[]) => JSON.stringify({ host, events: list } satisfies TelemetryBatch);
  const empty = body([]).length;
  const bodies: string[] = [];
  let batch: TelemetryEvent[] = [];
  let size = empty;
  for (const event of events) {
    // Its JSON, and the comma before it. Every value is ASCII (known sets, ids, numbers): a character is a byte.
    const length = JSON.stringify(event).length + 1;
    if (empty + length > TELEMETRY_MAX_BYTES) continue;
    if (size + length > TELEMETRY_MAX_BYTES || batch.length === TELEMETRY_MAX_EVENTS) {
      bodies.push(body(batch));
      batch = [];
      size = empty;
    }
    batch.push(event);
    size += length;
  }
  if (batch.length > 0) bodies.push(body(batch));
  return bodies;
}

export function createTelemetryQueue(url: string, host: string, deps: SendDeps): TelemetryQueue {
  let queue: TelemetryEvent[] = [];
  let timer: unknown;

  // A batch that cannot be sent is dropped without a word: telemetry is no concern of the visitor's console.
  function send(body: string): void {
    try {
      if (!deps.sendBeacon?.(url, body)) {
        deps
          .fetch(url, {
            method: 'POST',
            body,
            keepalive: true,
            credentials: 'omit',
            headers: { 'content-type': 'text/plain' },
          })
          .catch(() => undefined);
      }
      deps.sent?.(body);
    } catch {
      // dropped
    }
  }

  function flush(): void {
    if (timer !== undefined) deps.clearTimeout(timer);
    timer = undefined;
    if (queue.length === 0) return;
    const events = queue;
    queue = [];
    for (const body of batchesOf(host, events)) send(body);
  }

  deps.onHidden(flush);
  return {
    record(event) {
      queue.push(event);
      if (queue.length > TELEMETRY_MAX_EVENTS) queue.shift();
      timer ??= deps.setTimeout(flush, TELEMETRY_FLUSH_MS);
    },
    flush,
  };
}
