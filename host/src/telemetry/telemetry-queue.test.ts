import { telemetryBatchSchema } from 'shared/api/contract';
import type { TelemetryBatch, TelemetryEvent } from 'shared/telemetry';
import { TELEMETRY_FLUSH_MS, TELEMETRY_MAX_BYTES, TELEMETRY_MAX_EVENTS } from 'shared/telemetry-values';
import { batchesOf, createTelemetryQueue } from './telemetry-queue';

const URL = 'https://api.example.com/api/telemetry';
const HOST_BUILD = 'host-b7';

const errorPage = (status: number): TelemetryEvent => ({ kind: 'error-page', route: '*', status, remote: 'host' });
const load = (ms: number): TelemetryEvent => ({
  kind: 'load',
  remote: 'gifts',
  build: 'g-2027.01.15',
  phase: 'expose',
  outcome: 'ok',
  ms,
});

/** The browser's side: sendBeacon, fetch and the page's visibility, as the queue finds them on window. */
function browser({ beacon = true, accepts = true } = {}) {
  const beacons: string[] = [];
  const sendBeacon = jest.fn((url: string, body: string) => {
    expect(url).toBe(URL);
    if (accepts) beacons.push(body);
    return accepts;
  });
  Object.defineProperty(navigator, 'sendBeacon', { value: beacon ? sendBeacon : undefined, configurable: true });
  const fetches: { url: string; init: RequestInit }[] = [];
  const fetchStub = jest.spyOn(window, 'fetch').mockImplementation(async (url, init) => {
    fetches.push({ url: String(url), init: init ?? {} });
    return new Response(null, { status: 204 });
  });
  let ticket: string | undefined;
  const queue = createTelemetryQueue(URL, HOST_BUILD, () => ticket);
  return { queue, sendBeacon, beacons, fetchStub, fetches, setTicket: (next: string) => (ticket = next) };
}

function hide(): void {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
}

/** A body as the API reads it: it must pass the contract's schema. */
function parsed(body: string | undefined): TelemetryBatch {
  return telemetryBatchSchema.parse(JSON.parse(body ?? 'null')) as TelemetryBatch;
}

let cleanups: (() => void)[] = [];
beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('telemetry queue', () => {
  it('sends nothing while the page is in view, then one beacon of every event when it is hidden', () => {
    const { queue, beacons } = browser();
    queue.record(errorPage(404));
    queue.record(load(120));
    expect(beacons).toEqual([]);

    hide();
    expect(beacons).toHaveLength(1);
    expect(parsed(beacons[0])).toEqual({ host: HOST_BUILD, events: [errorPage(404), load(120)] });
    hide();
    expect(beacons).toHaveLength(1);
  });

  it("sends the page's ticket as it is when a batch goes, and none while the page has none", () => {
    const { queue, beacons, setTicket } = browser();
    queue.record(load(10));
    hide();
    setTicket('t1.payload.sig');
    queue.record(load(20));
    hide();
    setTicket('t1.newer.sig');
    queue.record(load(30));
    hide();
    expect(beacons.map((body) => parsed(body).ticket)).toEqual([undefined, 't1.payload.sig', 't1.newer.sig']);
  });

  it('sends when the page is left', () => {
    const { queue, beacons } = browser();
    queue.record(errorPage(500));
    window.dispatchEvent(new Event('pagehide'));
    expect(parsed(beacons[0]).events).toEqual([errorPage(500)]);
  });

  it('sends at most 30 s after the first event waiting, however many follow', () => {
    const { queue, beacons } = browser();
    queue.record(load(1));
    jest.advanceTimersByTime(TELEMETRY_FLUSH_MS - 1_000);
    queue.record(load(2));
    jest.advanceTimersByTime(999);
    expect(beacons).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(parsed(beacons[0]).events).toEqual([load(1), load(2)]);

    // The next batch starts its own 30 s with its first event.
    jest.advanceTimersByTime(TELEMETRY_FLUSH_MS * 2);
    expect(beacons).toHaveLength(1);
    queue.record(load(3));
    jest.advanceTimersByTime(TELEMETRY_FLUSH_MS);
    expect(parsed(beacons[1]).events).toEqual([load(3)]);
  });

  it('keeps the newest 50 events, dropping the oldest', () => {
    const { queue, beacons } = browser();
    for (let ms = 1; ms <= TELEMETRY_MAX_EVENTS + 7; ms += 1) queue.record(load(ms));
    hide();
    const { events } = parsed(beacons[0]);
    expect(events).toHaveLength(TELEMETRY_MAX_EVENTS);
    expect(events[0]).toEqual(load(8));
    expect(events.at(-1)).toEqual(load(TELEMETRY_MAX_EVENTS + 7));
  });

  it('falls back to a keepalive fetch without cookies where there is no sendBeacon, or it declines', () => {
    for (const options of [{ beacon: false }, { accepts: false }]) {
      const { queue, fetches } = browser(options);
      queue.record(errorPage(404));
      hide();
      expect(fetches).toHaveLength(1);
      const { url, init } = fetches[0] ?? { url: '', init: {} };
      expect(url).toBe(URL);
      expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' });
      expect(parsed(String(init.body)).events).toEqual([errorPage(404)]);
      jest.restoreAllMocks();
    }
  });

  it('never fails the page: a beacon that throws, or a fetch that fails, is dropped', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    cleanups.push(() => process.off('unhandledRejection', unhandled));
    const { queue, sendBeacon } = browser();
    sendBeacon.mockImplementation(() => {
      throw new TypeError('Illegal invocation');
    });
    queue.record(errorPage(404));
    expect(() => hide()).not.toThrow();

    const failing = browser({ beacon: false });
    failing.fetchStub.mockRejectedValue(new TypeError('Failed to fetch'));
    failing.queue.record(errorPage(404));
    expect(() => hide()).not.toThrow();
    await jest.runAllTimersAsync();
    expect(failing.fetchStub).toHaveBeenCalledTimes(1);
    expect(unhandled).not.toHaveBeenCalled();
  });
});

describe('batches', () => {
  it('stay under the size the API takes, in order, splitting where they must', () => {
    // The longest events the contract allows: 50 of them are more than one body may hold.
    const big = (n: number): TelemetryEvent => ({
      kind: 'csp',
      route: '/redeem/:redeemId',
      directive: `${n}`.padEnd(128, 'd'),
      blocked: `https://${n}`.padEnd(128, 'b'),
    });
    const events = Array.from({ length: TELEMETRY_MAX_EVENTS }, (_, n) => big(n));
    const bodies = batchesOf('h'.repeat(128), events);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(TELEMETRY_MAX_BYTES);
    expect(bodies.flatMap((body) => parsed(body).events)).toEqual(events);
  });

  it('hold at most 50 events each', () => {
    const events = Array.from({ length: TELEMETRY_MAX_EVENTS + 1 }, (_, n) => load(n));
    const bodies = batchesOf(HOST_BUILD, events);
    expect(bodies.map((body) => parsed(body).events.length)).toEqual([25, 26]);
    expect(bodies.flatMap((body) => parsed(body).events)).toEqual(events);
  });

  it('are none for no events', () => {
    expect(batchesOf(HOST_BUILD, [])).toEqual([]);
  });
});
