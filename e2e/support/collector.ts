/**
 * A loopback server that takes Mixpanel's browser requests as Mixpanel's API does, so the
 * host's real `mixpanel-browser` can be pointed at it (MIXPANEL_API_HOST). It accepts
 * `POST /track/` (and `/engage/`, `/groups/`, `/record/`) with a form body `data=…` holding
 * base64 JSON (the library's format for a custom API host) or plain JSON, gzip when the request
 * says so; answers CORS with credentials for the page's origin (the library sends cookies),
 * and replies `{"status":1,"error":null}` to `verbose=1` requests (batches) and `1` otherwise.
 * A test's own page can ask it for `markerUrl` (kept apart from what Mixpanel sent): proof that
 * the collector took that page's requests up to that moment.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';

export interface CollectedEvent {
  event: string;
  properties: Record<string, unknown>;
}

export interface CollectedRequest {
  /** `track`, `engage`, `groups`, `record`… */
  endpoint: string;
  method: string;
  /** When the request arrived, ms since the epoch. */
  receivedAt: number;
  /** The URL with its query and the decoded body, as text: what left the browser. */
  url: string;
  body: string;
  /** One request carries one batch of events (an array), or a single event. */
  events: CollectedEvent[];
}

/** The path of the marker a test's page asks for; not a Mixpanel route. */
export const MARKER_PATH = '/e2e-marker';

export interface Collector {
  port: number;
  url: string;
  /** Where a test's page asks for a marker (any method; answered 204 with CORS). */
  markerUrl: string;
  /** Mixpanel's requests, without the markers. */
  requests(): CollectedRequest[];
  /** How many markers arrived. */
  markers(): number;
  /** The `track` requests, in order. */
  batches(): CollectedRequest[];
  /** The events tracked since the last reset. */
  events(): CollectedEvent[];
  /** Resolves once `count` events have arrived, or fails after `timeoutMs`. */
  waitForEvents(count: number, timeoutMs: number): Promise<void>;
  /**
   * Resolves once the events that arrived meet `condition` (checked as each request arrives),
   * or fails after `timeoutMs` naming `what` and the events it got.
   */
  waitUntil(condition: (events: CollectedEvent[]) => boolean, what: string, timeoutMs: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** The JSON inside `data`: base64 (the library's default away from mixpanel.com) or JSON. */
export function decodeData(data: string): unknown {
  const text = /^\s*[[{]/.test(data) ? data : Buffer.from(data, 'base64').toString('utf8');
  return JSON.parse(text);
}

function eventsIn(payload: unknown): CollectedEvent[] {
  const items = Array.isArray(payload) ? payload : [payload];
  return items.filter((item): item is CollectedEvent => typeof item === 'object' && item !== null && 'event' in item);
}

function cors(request: IncomingMessage, response: ServerResponse): void {
  // With credentials the origin must be named, never `*`.
  response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
  response.setHeader('Access-Control-Allow-Credentials', 'true');
  response.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  response.setHeader(
    'Access-Control-Allow-Headers',
    request.headers['access-control-request-headers'] ?? 'Content-Type',
  );
  response.setHeader('Vary', 'Origin');
}

export async function startCollector(port: number): Promise<Collector> {
  let collected: CollectedRequest[] = [];
  let markers = 0;
  const waiters = new Set<() => void>();

  const server: Server = createServer((request, response) => {
    cors(request, response);
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    if (new URL(request.url ?? '/', `http://127.0.0.1:${port}`).pathname === MARKER_PATH) {
      markers += 1;
      response.writeHead(204, { 'Cache-Control': 'no-store' }).end();
      return;
    }
    void readBody(request)
      .then((raw) => {
        const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
        const endpoint = url.pathname.replace(/^\/+|\/+$/g, '');
        const gzip = request.headers['content-encoding'] === 'gzip' || url.searchParams.get('compression') === 'gzip';
        const body = (gzip ? gunzipSync(raw) : raw).toString('utf8');
        const data = request.method === 'POST' ? new URLSearchParams(body).get('data') : url.searchParams.get('data');
        let events: CollectedEvent[] = [];
        let decoded = '';
        try {
          if (data !== null) {
            const payload = decodeData(data);
            decoded = JSON.stringify(payload);
            events = eventsIn(payload);
          }
        } catch {
          decoded = body;
        }
        collected.push({
          endpoint,
          method: request.method ?? 'GET',
          receivedAt: Date.now(),
          url: request.url ?? '',
          body: decoded || body,
          events,
        });
        for (const wake of [...waiters]) wake();
        const verbose = url.searchParams.get('verbose') === '1';
        response.writeHead(200, { 'Content-Type': verbose ? 'application/json' : 'text/plain' });
        response.end(verbose ? JSON.stringify({ status: 1, error: null }) : '1');
      })
      .catch((error: unknown) => {
        // The browser gave the request up before its body was sent whole (a page closed while a
        // batch was on its way, 'aborted'): nothing was delivered, so nothing is collected. Left
        // unhandled, the rejection failed the test worker outside any test.
        if (!response.headersSent) response.writeHead(400).end();
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET' && (error as Error).message !== 'aborted')
          console.warn('[collector] a request could not be read', error);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

  /**
   * When the collector was last reset. A page closed before it may still be sending (a batch goes
   * as the page is left), so the events are those tracked since, by their `time` (seconds): the
   * previous test's late batch is not this test's.
   */
  let resetAt = 0;
  const trackedSinceReset = (event: CollectedEvent) => {
    const time = event.properties.time;
    return typeof time !== 'number' || time * 1000 >= resetAt;
  };
  const events = () =>
    collected
      .filter((request) => request.endpoint === 'track')
      .flatMap((request) => request.events)
      .filter(trackedSinceReset);
  const waitUntil = (condition: (events: CollectedEvent[]) => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!condition(events())) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        const got = events().map((event) => event.event);
        reject(
          new Error(
            `the collector got no ${what} within ${timeoutMs} ms; it got ${got.length}: ${JSON.stringify(got)}`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  const url = `http://127.0.0.1:${port}`;
  return {
    port,
    url,
    markerUrl: `${url}${MARKER_PATH}`,
    requests: () => [...collected],
    markers: () => markers,
    batches: () => collected.filter((request) => request.endpoint === 'track'),
    events,
    waitForEvents: (count, timeoutMs) => waitUntil((arrived) => arrived.length >= count, `${count} events`, timeoutMs),
    waitUntil,
    reset() {
      collected = [];
      markers = 0;
      resetAt = Date.now();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
