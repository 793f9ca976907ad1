/**
 * `POST /api/telemetry`: what the host's pages report, as an operator then reads it in the
 * metrics. Only well-formed batches from the site's own pages within their budget move a series;
 * every refusal moves only `giftbox_telemetry_batches_total{result}`.
 */
import { type LightMyRequestResponse } from 'fastify';
import { type Registry } from 'prom-client';
import { signTicket, type TicketBuild } from 'server/page-ticket';
import { type TelemetryEvent, TELEMETRY_MAX_EVENTS } from 'shared/telemetry';
import { type App } from '../src/app-context';
import { harnessFor } from './support/harness';
import { seriesOf, valueOf } from './support/metrics';
import { startPartsServer, type PartsServer } from './support/parts-server';
import { DEFAULT_IP } from './support/test-app';
import { TEST_TICKET_SECRET } from './support/test-config';
import { type TestClock, MINUTE } from './support/test-clock';

const harness = harnessFor('postgres');
const HOST = 'http://localhost:3000';
const BATCHES = 'giftbox_telemetry_batches_total';
let app: App;
let metrics: Registry;
let clock: TestClock;

beforeEach(async () => {
  ({ app, metrics, clock } = await harness.start());
});

const LOAD: TelemetryEvent = {
  kind: 'load',
  remote: 'gifts',
  build: 'g1',
  phase: 'entry',
  outcome: 'failed',
  ms: 1234,
};
const EVENTS: TelemetryEvent[] = [
  LOAD,
  { kind: 'load', remote: 'redeem', build: 'unknown', phase: 'render', outcome: 'ok', ms: 80 },
  { kind: 'reload', route: '/gifts/:giftId', remote: 'gifts', build: 'g1' },
  { kind: 'error-page', route: '*', status: 404, remote: 'host' },
  { kind: 'vital', name: 'LCP', value: 2300, route: '/', remote: 'content', build: 'c1' },
  { kind: 'vital', name: 'INP', value: 120, route: '/game', remote: 'gifts', build: 'g1' },
  { kind: 'vital', name: 'CLS', value: 0.12, route: '/game', remote: 'host', build: 'h1' },
  { kind: 'csp', route: '/redeem/:redeemId', directive: 'script-src-elem', blocked: 'https://evil.example' },
  { kind: 'csp', route: '/', directive: 'connect-src', blocked: 'http://localhost:3001' },
  { kind: 'csp', route: '/', directive: 'style-src-attr', blocked: 'inline' },
];

interface Send {
  contentType?: string;
  headers?: Record<string, string>;
  ip?: string;
}

/** As `navigator.sendBeacon(url, string)` sends it from the host's page. */
function beacon(body: unknown, { contentType = 'text/plain;charset=UTF-8', headers, ip }: Send = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/telemetry',
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': contentType, origin: HOST, 'sec-fetch-site': 'same-site', ...headers },
    remoteAddress: ip ?? DEFAULT_IP,
  });
}

const batch = (events: unknown[] = EVENTS, host = 'h1') => ({ host, events });

/** A page's ticket as the host's server signs it (server/page-ticket.ts), naming `builds`, now. */
const ticketFor = (builds: Record<string, TicketBuild>) =>
  signTicket(TEST_TICKET_SECRET, builds, Math.floor(clock.now().getTime() / 1000));

/** Every series but the batches' results: what a refused batch must leave as it was. */
async function telemetrySeries(): Promise<string> {
  const text = await metrics.metrics();
  return text
    .split('\n')
    .filter((line) => /^giftbox_(remote|reloads|error_pages|web_vital|csp)/.test(line))
    .join('\n');
}

function expectError(response: LightMyRequestResponse, statusCode: number): void {
  expect(response.statusCode).toBe(statusCode);
  expect(response.json()).toEqual({ statusCode, statusMessage: expect.any(String), message: expect.any(String) });
}

describe('a batch from the host’s page', () => {
  it('is taken as a text/plain beacon from the same site (204), each event a series', async () => {
    const response = await beacon(batch());
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    const loads = 'giftbox_remote_loads_total';
    expect(await valueOf(metrics, loads, { remote: 'gifts', build: 'other', phase: 'entry', outcome: 'failed' })).toBe(
      1,
    );
    // Without the page's ticket, no load is labelled with a build.
    expect(await valueOf(metrics, loads, { remote: 'redeem', build: 'other', phase: 'render', outcome: 'ok' })).toBe(1);
    const duration = 'giftbox_remote_load_duration_seconds';
    expect(await valueOf(metrics, duration, { remote: 'gifts', outcome: 'failed' }, '_sum')).toBeCloseTo(1.234);
    expect(await valueOf(metrics, 'giftbox_reloads_total', { route: '/gifts/:giftId', remote: 'gifts' })).toBe(1);
    expect(await valueOf(metrics, 'giftbox_error_pages_total', { route: '*', status: '404', remote: 'host' })).toBe(1);
    const vitals = 'giftbox_web_vital_seconds';
    expect(await valueOf(metrics, vitals, { metric: 'LCP', route: '/', remote: 'content' }, '_sum')).toBeCloseTo(2.3);
    expect(await valueOf(metrics, vitals, { metric: 'INP', route: '/game', remote: 'gifts' }, '_sum')).toBeCloseTo(
      0.12,
    );
    expect(await valueOf(metrics, vitals, { metric: 'CLS' }, '_count')).toBe(0);
    expect(await valueOf(metrics, 'giftbox_web_vital_cls', { route: '/game', remote: 'host' }, '_sum')).toBeCloseTo(
      0.12,
    );
    const csp = 'giftbox_csp_violations_total';
    expect(
      await valueOf(metrics, csp, { route: '/redeem/:redeemId', directive: 'script-src-elem', blocked: 'other' }),
    ).toBe(1);
    expect(await valueOf(metrics, csp, { directive: 'connect-src', blocked: 'http://localhost:3001' })).toBe(1);
    expect(await valueOf(metrics, csp, { directive: 'style-src-attr', blocked: 'inline' })).toBe(1);
    // Told by the page, apart from the browsers' own reports of the same violations.
    expect(await valueOf(metrics, csp, { source: 'page' })).toBe(3);
    expect(await valueOf(metrics, csp, { source: 'report' })).toBe(0);
    expect(await valueOf(metrics, BATCHES, { result: 'accepted' })).toBe(1);
    const everything = await metrics.metrics();
    expect(everything).not.toContain('evil.example');
    expect(everything).toMatch(/giftbox_remote_loads_total\{[^}]*part="api"/);
  });

  it('is taken as application/json too, and from a client that is not a page (no Origin)', async () => {
    expect((await beacon(batch([LOAD]), { contentType: 'application/json' })).statusCode).toBe(204);
    const fromCurl = await app.inject({
      method: 'POST',
      url: '/api/telemetry',
      payload: JSON.stringify(batch([LOAD])),
      headers: { 'content-type': 'text/plain' },
    });
    expect(fromCurl.statusCode).toBe(204);
    expect(await valueOf(metrics, 'giftbox_remote_loads_total', { remote: 'gifts' })).toBe(2);
  });

  it('labels a route only with the part that owns it or the host, and a status an operator acts on as itself, else its class', async () => {
    const response = await beacon(
      batch([
        { kind: 'error-page', route: '/game', status: 503, remote: 'gifts' },
        { kind: 'error-page', route: '/game', status: 418, remote: 'host' },
        { kind: 'error-page', route: '/about', status: 502, remote: 'gifts' },
        { kind: 'vital', name: 'LCP', value: 900, route: '/redeem/:redeemId', remote: 'content', build: 'c1' },
        { kind: 'reload', route: '*', remote: 'redeem', build: 'r1' },
      ]),
    );
    expect(response.statusCode).toBe(204);

    const errorPages = 'giftbox_error_pages_total';
    expect(await valueOf(metrics, errorPages, { route: '/game', status: '503', remote: 'gifts' })).toBe(1);
    expect(await valueOf(metrics, errorPages, { route: '/game', status: '4xx', remote: 'host' })).toBe(1);
    expect(await valueOf(metrics, errorPages, { route: 'other', status: '5xx', remote: 'gifts' })).toBe(1);
    const vitals = 'giftbox_web_vital_seconds';
    expect(await valueOf(metrics, vitals, { route: 'other', remote: 'content' }, '_count')).toBe(1);
    expect(await valueOf(metrics, 'giftbox_reloads_total', { route: 'other', remote: 'redeem' })).toBe(1);
    expect(await metrics.metrics()).not.toMatch(/status="(418|502)"/);
  });

  it('counts every result from zero', async () => {
    const results = (await seriesOf(metrics, BATCHES)).map((series) => [series.labels.result, series.value]);
    expect(Object.fromEntries(results)).toEqual({ accepted: 0, invalid: 0, too_large: 0, limited: 0 });
  });
});

describe('an event naming a route or a remote the API was built without (a remote added since)', () => {
  const UNKNOWN: TelemetryEvent[] = [
    { kind: 'load', remote: 'news', build: 'n1', phase: 'entry', outcome: 'failed', ms: 300 },
    { kind: 'fallback', remote: 'news', from: 'n2', to: 'n1' },
    { kind: 'vital', name: 'LCP', value: 1500, route: '/news', remote: 'news', build: 'n1' },
    { kind: 'error-page', route: '/news', status: 500, remote: 'host', build: 'h1' },
    { kind: 'reload', route: '/news/:storyId', remote: 'content', build: 'c1' },
    { kind: 'csp', route: '/news', directive: 'script-src', blocked: 'inline' },
  ];

  it('An event with an unknown route in a batch of valid ones: the valid ones are counted, the unknown ones under other', async () => {
    const ticket = ticketFor({ news: { id: 'n1', channel: 'stable' } });
    const response = await beacon({ ...batch([...EVENTS, ...UNKNOWN]), ticket });
    expect(response.statusCode).toBe(204);
    expect(await valueOf(metrics, BATCHES, { result: 'accepted' })).toBe(1);
    expect(await valueOf(metrics, BATCHES, { result: 'invalid' })).toBe(0);

    // The batch's known events, each as its own series.
    const loads = 'giftbox_remote_loads_total';
    expect(await valueOf(metrics, loads, { remote: 'gifts', phase: 'entry', outcome: 'failed' })).toBe(1);
    expect(await valueOf(metrics, loads, { remote: 'redeem', phase: 'render', outcome: 'ok' })).toBe(1);
    expect(await valueOf(metrics, 'giftbox_reloads_total', { route: '/gifts/:giftId', remote: 'gifts' })).toBe(1);
    const errorPages = 'giftbox_error_pages_total';
    expect(await valueOf(metrics, errorPages, { route: '*', status: '404', remote: 'host' })).toBe(1);
    const vitals = 'giftbox_web_vital_seconds';
    expect(await valueOf(metrics, vitals, { metric: 'LCP', route: '/', remote: 'content' }, '_count')).toBe(1);
    const csp = 'giftbox_csp_violations_total';
    expect(await valueOf(metrics, csp, { route: '/redeem/:redeemId' })).toBe(1);

    // The unknown ones: the route, a remote the API does not know and that remote's build are `other`.
    expect(await valueOf(metrics, loads, { remote: 'other', build: 'other', phase: 'entry', outcome: 'failed' })).toBe(
      1,
    );
    const fallbacks = 'giftbox_remote_fallbacks_total';
    expect(await valueOf(metrics, fallbacks, { remote: 'other', from: 'other', to: 'other' })).toBe(1);
    expect(
      await valueOf(metrics, vitals, { metric: 'LCP', route: 'other', remote: 'other', build: 'other' }, '_count'),
    ).toBe(1);
    expect(await valueOf(metrics, errorPages, { route: 'other', status: '500', remote: 'host' })).toBe(1);
    expect(await valueOf(metrics, 'giftbox_reloads_total', { route: 'other', remote: 'content' })).toBe(1);
    expect(await valueOf(metrics, csp, { route: 'other', directive: 'script-src', source: 'page' })).toBe(1);
    expect(await valueOf(metrics, 'giftbox_build_clients_total', { remote: 'other' })).toBe(0);
    expect(await metrics.metrics()).not.toMatch(/news|n1|n2/);
  });

  it('is refused (400) when the route or the remote is not one a page can name, the rest of the batch with it', async () => {
    for (const events of [
      [...EVENTS, { kind: 'reload', route: '/news?story=1', remote: 'content', build: 'c1' }],
      [...EVENTS, { kind: 'reload', route: 'news', remote: 'content', build: 'c1' }],
      [...EVENTS, { kind: 'reload', route: `/${'n'.repeat(128)}`, remote: 'content', build: 'c1' }],
      [...EVENTS, { ...LOAD, remote: 'News!' }],
      [...EVENTS, { ...LOAD, remote: 'n'.repeat(65) }],
    ])
      expectError(await beacon(batch(events)), 400);
    expect(await telemetrySeries()).toBe('');
    expect(await valueOf(metrics, BATCHES, { result: 'invalid' })).toBe(5);
    expect(await valueOf(metrics, BATCHES, { result: 'accepted' })).toBe(0);
  });
});

describe('build labels', () => {
  let parts: PartsServer;

  beforeEach(async () => {
    parts = await startPartsServer();
  });
  afterEach(async () => {
    await parts.close();
  });

  /** Publishes host h7, gifts g2 (g1 before it, canary g3), content c1 and redeem r1; starts the API reading them. */
  async function deployed(): Promise<void> {
    parts.publish('host', 'h7', ['h7', 'h6']);
    parts.publish('gifts', 'g2', ['g2', 'g1', 'g0'], { previous: 'g1', canary: { id: 'g3', percent: 10, since: 1 } });
    parts.publish('content', 'c1');
    parts.publish('redeem', 'r1');
    ({ app, metrics, clock } = await harness.start({ builds: { sources: parts.sources, pollMs: 60_000 } }));
  }
  const loads = async (build: string, outcome = 'failed') =>
    valueOf(metrics, 'giftbox_remote_loads_total', { remote: 'gifts', build, outcome });

  it('name the builds the parts’ deployments name and the page’s ticket names; any other is "other"', async () => {
    await deployed();
    const cases: Array<[TicketBuild, TelemetryEvent[]]> = [
      [{ id: 'g2', channel: 'stable', fallback: 'g1' }, [{ ...LOAD, build: 'g2' }]],
      // The page fell back: its ticket names the build it falls back to.
      [{ id: 'g2', channel: 'stable', fallback: 'g1' }, [{ ...LOAD, build: 'g1' }]],
      // A made-up id, another part's build, a build the ticket does not name, or one the deployment no longer names.
      [{ id: 'g2', channel: 'stable' }, [{ ...LOAD, build: 'g9-made-up' }]],
      [{ id: 'g2', channel: 'stable' }, [{ ...LOAD, build: 'h7' }]],
      [{ id: 'g2', channel: 'stable' }, [{ ...LOAD, build: 'g3' }]],
      [{ id: 'g0', channel: 'stable' }, [{ ...LOAD, build: 'g0' }]],
      [
        { id: 'g2', channel: 'stable' },
        [
          { kind: 'vital', name: 'TTFB', value: 300, route: '/about', remote: 'host', build: 'h7' },
          { kind: 'vital', name: 'TTFB', value: 300, route: '/about', remote: 'host', build: 'h6' },
          { kind: 'reload', route: '/game', remote: 'host', build: 'h7' },
        ],
      ],
    ];
    for (const [given, events] of cases)
      expect((await beacon({ ...batch(events), ticket: ticketFor({ gifts: given }) })).statusCode).toBe(204);

    expect(await loads('g1')).toBe(1);
    expect(await loads('g2')).toBe(1);
    expect(await loads('other')).toBe(4);
    const ttfb = async (build: string) =>
      valueOf(metrics, 'giftbox_web_vital_seconds', { metric: 'TTFB', remote: 'host', build }, '_count');
    expect(await ttfb('h7')).toBe(1);
    expect(await ttfb('other')).toBe(1);
    expect(await valueOf(metrics, 'giftbox_reloads_total', { remote: 'host', build: 'h7' })).toBe(1);
    const everything = await metrics.metrics();
    expect(everything).not.toContain('g9-made-up');
    expect(everything).not.toMatch(/build="(g0|h6)"/);
  });

  it('name a canary’s build, so its error pages and its switches to the last known good build can be counted per build', async () => {
    await deployed();
    const response = await beacon({
      ...batch([
        { ...LOAD, build: 'g3' },
        { kind: 'fallback', remote: 'gifts', from: 'g3', to: 'g2' },
        { kind: 'error-page', route: '/game', status: 500, remote: 'gifts', build: 'g3' },
        { kind: 'error-page', route: '/game', status: 500, remote: 'gifts', build: 'g2' },
        { kind: 'error-page', route: '*', status: 404, remote: 'host', build: 'h7' },
        // A page older than the build label sends none.
        { kind: 'error-page', route: '/game', status: 500, remote: 'gifts' },
      ]),
      ticket: ticketFor({ gifts: { id: 'g3', channel: 'canary', fallback: 'g2' } }),
    });
    expect(response.statusCode).toBe(204);

    expect(await loads('g3')).toBe(1);
    const fallbacks = 'giftbox_remote_fallbacks_total';
    expect(await valueOf(metrics, fallbacks, { remote: 'gifts', from: 'g3', to: 'g2' })).toBe(1);
    const errorPages = async (remote: string, build: string) =>
      valueOf(metrics, 'giftbox_error_pages_total', { remote, build });
    expect(await errorPages('gifts', 'g3')).toBe(1);
    expect(await errorPages('gifts', 'g2')).toBe(1);
    expect(await errorPages('gifts', 'unknown')).toBe(1);
    expect(await errorPages('host', 'h7')).toBe(1);
  });

  it('name no build on a stranger’s word: 50 failed loads of the live build without a page move its count by none', async () => {
    await deployed();
    const forged = [
      undefined,
      'not-a-ticket',
      signTicket('a-secret-the-host-does-not-have-0123456789', { gifts: { id: 'g2', channel: 'stable' } }, 1),
      // Signed by the host, but long expired.
      signTicket(TEST_TICKET_SECRET, { gifts: { id: 'g2', channel: 'stable' } }, clock.now().getTime() / 1000 - 86_400),
    ];
    for (const ticket of forged) {
      const events = Array.from({ length: TELEMETRY_MAX_EVENTS }, () => ({ ...LOAD, build: 'g2' }));
      expect((await beacon({ ...batch(events), ...(ticket ? { ticket } : {}) })).statusCode).toBe(204);
    }
    expect(await loads('g2')).toBe(0);
    expect(await loads('other')).toBe(4 * TELEMETRY_MAX_EVENTS);
    expect(await valueOf(metrics, 'giftbox_build_clients_total', { build: 'g2' })).toBe(0);
  });

  it('count one load outcome per remote per page: 50 failed loads on one ticket count once for the build', async () => {
    await deployed();
    const ticket = ticketFor({ gifts: { id: 'g3', channel: 'canary', fallback: 'g2' } });
    const events = Array.from({ length: TELEMETRY_MAX_EVENTS }, () => ({ ...LOAD, build: 'g3' }));
    expect((await beacon({ ...batch(events), ticket })).statusCode).toBe(204);
    expect((await beacon({ ...batch(events), ticket })).statusCode).toBe(204);
    expect(await loads('g3')).toBe(1);
    expect(await loads('other')).toBe(2 * TELEMETRY_MAX_EVENTS - 1);
  });

  it('count the clients that reported a build apart from the events: one address is one client, whatever it sends', async () => {
    await deployed();
    const clients = async (signal: string) =>
      valueOf(metrics, 'giftbox_build_clients_total', { remote: 'gifts', build: 'g3', signal });
    const canary = { gifts: { id: 'g3', channel: 'canary' as const, fallback: 'g2' } };
    // One address with a page of its own for each of 20 failed loads (it can load pages too).
    for (let page = 0; page < 20; page += 1)
      await beacon({ ...batch([{ ...LOAD, build: 'g3' }]), ticket: ticketFor(canary) }, { ip: '198.51.100.7' });
    expect(await loads('g3')).toBe(20);
    expect(await clients('failed')).toBe(1);
    expect(await clients('load')).toBe(1);
    for (const ip of ['203.0.113.1', '203.0.113.2'])
      await beacon({ ...batch([{ ...LOAD, build: 'g3', outcome: 'ok' }]), ticket: ticketFor(canary) }, { ip });
    expect(await clients('load')).toBe(3);
    expect(await clients('failed')).toBe(1);
    // Every failed outcome counts its client as failing, an integrity refusal as much as a failed download.
    await beacon(
      { ...batch([{ ...LOAD, build: 'g3', outcome: 'integrity' }]), ticket: ticketFor(canary) },
      { ip: '203.0.113.3' },
    );
    expect(await clients('failed')).toBe(2);
    // Counted again in the next window.
    clock.advance(10 * MINUTE);
    await beacon({ ...batch([{ ...LOAD, build: 'g3' }]), ticket: ticketFor(canary) }, { ip: '198.51.100.7' });
    expect(await clients('failed')).toBe(3);
  });
});

describe('a refused batch changes nothing but its result’s count', () => {
  it('is refused from another site (403)', async () => {
    const response = await beacon(batch(), {
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expectError(response, 403);
    expect(await telemetrySeries()).toBe('');
    expect(await valueOf(metrics, BATCHES, { result: 'invalid' })).toBe(1);
  });

  const event = (change: Record<string, unknown>) => [{ ...LOAD, ...change }];
  it.each([
    ['a route that is no route pattern', [{ kind: 'reload', route: '/gifts/<script>', remote: 'gifts', build: 'g1' }]],
    ['a remote that is no part name', event({ remote: '<evil>' })],
    ['an unknown phase', event({ phase: 'download' })],
    ['a fallback of a remote that is no part name', [{ kind: 'fallback', remote: 'Evil', from: 'g1', to: 'g2' }]],
    ['an unknown kind', [{ kind: 'click', route: '/' }]],
    ['a field the contract does not have', event({ email: 'jane@example.com' })],
    ['a build id with characters no build has', event({ build: '<script>' })],
    ['a build id longer than any', event({ build: 'b'.repeat(129) })],
    ['a negative duration', event({ ms: -1 })],
    ['a duration over ten minutes', event({ ms: 600_001 })],
    ['a status that is not an error', [{ kind: 'error-page', route: '/', status: 200, remote: 'host' }]],
    ['no events', []],
    [`more than ${TELEMETRY_MAX_EVENTS} events`, Array.from({ length: TELEMETRY_MAX_EVENTS + 1 }, () => LOAD)],
  ])('is a 400 with %s', async (_, events) => {
    const response = await beacon(batch(events));
    expectError(response, 400);
    expect(response.json<{ message: string }>().message).toMatch(/^Invalid request body: /);
    expect(await telemetrySeries()).toBe('');
    expect(await valueOf(metrics, BATCHES, { result: 'invalid' })).toBe(1);
    expect(await valueOf(metrics, BATCHES, { result: 'accepted' })).toBe(0);
  });

  it.each([
    ['not JSON', 'hello'],
    ['no host', JSON.stringify({ events: [LOAD] })],
    ['a list', JSON.stringify([LOAD])],
    ['a prototype trick', `{"host":"h1","events":[],"__proto__":{"polluted":true}}`],
  ])('is a 400 when it is %s', async (_, body) => {
    expectError(await beacon(body), 400);
    expect(await valueOf(metrics, BATCHES, { result: 'invalid' })).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is a 400 as a form or any type other than JSON or text', async () => {
    expectError(await beacon(JSON.stringify(batch()), { contentType: 'application/x-www-form-urlencoded' }), 400);
    expect(await telemetrySeries()).toBe('');
  });

  it('is a 413 over 16 KiB, whatever it holds', async () => {
    const body = `${JSON.stringify(batch())}${' '.repeat(16 * 1024)}`;
    const response = await beacon(body);
    expectError(response, 413);
    expect(response.json<{ message: string }>().message).toBe('The request body is too large: at most 16384 bytes.');
    expect(await telemetrySeries()).toBe('');
    expect(await valueOf(metrics, BATCHES, { result: 'too_large' })).toBe(1);
  });

  it('is a 429 past the address’s budget for the minute, with Retry-After; the next minute it is taken', async () => {
    ({ app, metrics, clock } = await harness.start({ limits: { telemetryBatchesPerIpPerMinute: 2 } }));
    expect((await beacon(batch([LOAD]))).statusCode).toBe(204);
    expect((await beacon(batch([LOAD]))).statusCode).toBe(204);
    const limited = await beacon(batch([LOAD]));
    expectError(limited, 429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another address has its own budget.
    expect((await beacon(batch([LOAD]), { ip: '198.51.100.99' })).statusCode).toBe(204);
    expect(await valueOf(metrics, 'giftbox_remote_loads_total')).toBe(3);
    expect(await valueOf(metrics, BATCHES, { result: 'limited' })).toBe(1);

    clock.advance(MINUTE);
    expect((await beacon(batch([LOAD]))).statusCode).toBe(204);
  });

  it('counts the budget per client behind a trusted proxy, by X-Forwarded-For', async () => {
    ({ app, metrics } = await harness.start({
      trustProxy: ['127.0.0.1'],
      limits: { telemetryBatchesPerIpPerMinute: 1 },
    }));
    const viaProxy = (client: string) =>
      beacon(batch([LOAD]), { ip: '127.0.0.1', headers: { 'x-forwarded-for': client } });
    expect((await viaProxy('203.0.113.1')).statusCode).toBe(204);
    expect((await viaProxy('203.0.113.2')).statusCode).toBe(204);
    expect((await viaProxy('203.0.113.1')).statusCode).toBe(429);
  });

  it('is never a 5xx, whatever the body', async () => {
    const bodies = [
      '',
      'null',
      '0',
      '"text"',
      '{}',
      '[]',
      '{"host":null,"events":null}',
      `{"host":"h1","events":[${'{"kind":"load"},'.repeat(40)}{"kind":"load"}]}`,
      '['.repeat(8000),
      '{"host":"h1","events":[{"kind":"vital","name":"LCP","value":1e400,"route":"/","remote":"host","build":"h"}]}',
      '{"host":"h1","events":[{"kind":"load","remote":"gifts","build":"g","phase":"entry","outcome":"ok","ms":"12"}]}',
      '\u0000\u0001\u0002',
      Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString('latin1'),
    ];
    for (const contentType of ['text/plain;charset=UTF-8', 'application/json', 'text/plain; charset=latin1']) {
      for (const body of bodies) {
        const response = await beacon(body, { contentType });
        expect([response.statusCode, contentType, body.slice(0, 40)]).toEqual([400, contentType, body.slice(0, 40)]);
      }
    }
    expect(await telemetrySeries()).toBe('');
  });
});
