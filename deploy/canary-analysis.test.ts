/**
 * The canary analysis against a real Prometheus (Debian's, testbed) scraping the real API's
 * metrics listener (api/src/index.ts as its own process, on PGlite in memory), fed telemetry
 * batches as the host's pages send them (`POST /api/telemetry`): a stable build, a healthy
 * canary, one whose loads fail, one whose LCP is slow and a young one with few loads. The API
 * labels only the builds the remote's deployment names, so a small server publishes the remote's
 * `builds/latest.json` with each canary in turn, as a release tries them one after another. Each
 * visit is a page of its own, with the ticket the host's server would have given it, from an
 * address of its own (the API trusts loopback's X-Forwarded-For, as behind nginx); a stranger's
 * forged failures come without a page, or with many pages from one address.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { signTicket } from 'server/page-ticket';
import type { TelemetryEvent } from 'shared/telemetry';
import { freePort } from 'testbed/free-port';
import { startServer, stopProcess, type RunningProcess } from 'testbed/process';
import { startPrometheus, type RunningPrometheus } from 'testbed/prometheus';
import { analyseCanary, DEFAULT_THRESHOLDS, describeFigures, judge, type BuildFigures } from './canary-analysis';
import { runRelease, type DeploymentCommands } from './release';

const REMOTE = 'gifts';
const STABLE = 'stable-1';
const GOOD = 'good-2';
const BAD = 'bad-3';
const SLOW = 'slow-4';
const YOUNG = 'young-5';
const FORGED = 'forged-6';
const HOST_ORIGIN = 'http://127.0.0.1:9';
const TICKET_SECRET = 'canary-analysis-test-ticket-secret-0123456789';

let parts: Server;
let api: RunningProcess;
let apiUrl: string;
let prometheus: RunningPrometheus;
/** When the batches were sent: every build's window starts just before. */
let sentFrom: number;

/** The remote's deployment: the stable build, and the canary under trial if any. */
let deployment: { id: string; timestamp: number; canary?: { id: string; percent: number; since: number } } = {
  id: STABLE,
  timestamp: 1,
};

async function startParts(): Promise<string> {
  parts = createServer((request, response) => {
    if (request.url !== '/gifts/builds/latest.json') response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(deployment));
  });
  await new Promise<void>((resolve) => parts.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(parts.address() as AddressInfo).port}/gifts/mf-manifest.json`;
}

/** What one page reports: its events, the ticket the host's server gave it (none: a stranger's), its address. */
interface Page {
  events: TelemetryEvent[];
  ticket?: string;
  ip: string;
}

let nextAddress = 0;
/** An address of a visitor's own. */
const visitorAddress = () => {
  nextAddress += 1;
  return `198.51.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
};
const ticketFor = (build: string) =>
  signTicket(TICKET_SECRET, { [REMOTE]: { id: build, channel: 'stable' } }, Math.floor(Date.now() / 1000));

/** What `count` visitors of `build` report, each on a page and an address of their own: a load (some failed), LCPs and INPs. */
function visits(build: string, count: number, options: { failed?: number; lcpMs?: number } = {}): Page[] {
  const pages: Page[] = [];
  for (let index = 0; index < count; index += 1) {
    const failed = index < (options.failed ?? 0);
    const events: TelemetryEvent[] = [];
    pages.push({ events, ticket: ticketFor(build), ip: visitorAddress() });
    events.push({
      kind: 'load',
      remote: REMOTE,
      build,
      phase: failed ? 'chunk' : 'render',
      outcome: failed ? 'failed' : 'ok',
      ms: 300,
    });
    if (failed) continue;
    events.push(
      { kind: 'vital', name: 'LCP', value: options.lcpMs ?? 1100, route: '/game', remote: REMOTE, build },
      { kind: 'vital', name: 'INP', value: 80, route: '/game', remote: REMOTE, build },
    );
  }
  return pages;
}

/** A stranger's failed load of `build`. */
const failedLoad = (build: string): TelemetryEvent => ({
  kind: 'load',
  remote: REMOTE,
  build,
  phase: 'render',
  outcome: 'failed',
  ms: 1,
});
const STRANGER = '203.0.113.66';
/** 50 failed loads of `build` from a client with no page: no ticket. */
const withoutPage = (build: string): Page => ({
  events: Array.from({ length: 50 }, () => failedLoad(build)),
  ip: STRANGER,
});
/** 50 failed loads of `build` from one address that loaded a page (and so got a ticket) for each. */
const onePagePerFailure = (build: string): Page[] =>
  Array.from({ length: 50 }, () => ({ events: [failedLoad(build)], ticket: ticketFor(build), ip: STRANGER }));

/** The batches the API took. */
let sentBatches = 0;

/** Sends each page's events as its beacons do, from its address. */
async function send(pages: readonly Page[]): Promise<void> {
  for (const { events, ticket, ip } of pages) {
    const response = await fetch(`${apiUrl}/api/telemetry`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        origin: HOST_ORIGIN,
        'sec-fetch-site': 'same-site',
        'x-forwarded-for': ip,
      },
      body: JSON.stringify({ host: 'h1', ...(ticket ? { ticket } : {}), events }),
    });
    if (response.status !== 204)
      throw new Error(`the API refused a batch: ${response.status} ${await response.text()}`);
    sentBatches += 1;
  }
}

beforeAll(async () => {
  const manifest = await startParts();
  const [port, metricsPort] = [await freePort(), await freePort()];
  apiUrl = `http://127.0.0.1:${port}`;
  // Prometheus first: it applies its targets about 5 s after it starts, time for the API to start.
  const starting = startPrometheus({ jobs: [{ job: 'api', targets: [`127.0.0.1:${metricsPort}`] }] });
  api = await startServer({
    name: 'the API',
    command: process.execPath,
    args: ['--import', 'tsx', 'src/index.ts'],
    cwd: join(__dirname, '..', 'api'),
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      PGLITE_DATA_DIR: 'memory://',
      HOST_ORIGIN,
      API_BASE_URL: HOST_ORIGIN,
      VISITOR_COOKIE_SECRETS: 'canary-analysis-test-secret-of-thirty-two-characters',
      PAGE_TICKET_SECRETS: TICKET_SECRET,
      TRUST_PROXY: 'loopback',
      REMOTE_GIFTS_URL: manifest,
      // A production API names every remote it reads builds from; these two publish nothing here.
      REMOTE_REDEEM_URL: `${HOST_ORIGIN}/redeem/mf-manifest.json`,
      REMOTE_CONTENT_URL: `${HOST_ORIGIN}/content/mf-manifest.json`,
      BUILDS_POLL_MS: '1000',
    },
    output: 'pipe',
    health: `${apiUrl}/api/health`,
    readyTimeoutMs: 90_000,
  });
  prometheus = await starting;
  await prometheus.waitForTargetsUp(30_000);
  sentFrom = Date.now();
  await send([...visits(STABLE, 60, { failed: 1 }), withoutPage(STABLE)]);
  // Each canary's batches once the deployment names it: the API reads it again on the first.
  for (const [canary, events] of [
    [GOOD, visits(GOOD, 60, { failed: 2, lcpMs: 1200 })],
    [BAD, visits(BAD, 60, { failed: 15 })],
    [SLOW, visits(SLOW, 60, { lcpMs: 3500 })],
    [YOUNG, visits(YOUNG, 5)],
    [FORGED, [...visits(FORGED, 60, { failed: 1 }), withoutPage(FORGED), ...onePagePerFailure(FORGED)]],
  ] as const) {
    deployment = { id: STABLE, timestamp: 1, canary: { id: canary, percent: 10, since: 1 } };
    await send(events);
  }
  // Every build's series in Prometheus before a test asks.
  // Every batch in Prometheus before a test asks: a scrape taken while they were being sent has
  // the series but not all their counts.
  await prometheus.waitFor('every batch sent', async () => {
    const [accepted] = await prometheus.vector('sum(giftbox_telemetry_batches_total{result="accepted"})');
    return Number(accepted?.value[1]) === sentBatches;
  });
}, 150_000);

afterAll(async () => {
  await prometheus?.stop();
  if (api) await stopProcess(api);
  parts?.close();
});

const analyse = (canary: string, minSample = 20) =>
  analyseCanary({
    prometheus: prometheus.url,
    remote: REMOTE,
    stable: STABLE,
    canary,
    since: sentFrom - 2_000,
    thresholds: { minSample },
  });

test('a canary as good as stable is healthy, with the figures of both builds', async () => {
  const verdict = await analyse(GOOD);
  expect(verdict.kind).toBe('healthy');
  if (verdict.kind !== 'healthy') return;
  expect(verdict.canary).toMatchObject({ build: GOOD, loads: 60, failedLoads: 2, pageViews: 58 });
  expect(verdict.stable).toMatchObject({ build: STABLE, loads: 60, failedLoads: 1, pageViews: 59 });
  expect(verdict.canary.lcpP75Ms).toBeGreaterThan(1000);
  expect(verdict.canary.lcpP75Ms).toBeLessThanOrEqual(1500);
  expect(describeFigures('canary', verdict.canary)).toContain(
    'canary good-2: 60 loads from 60 clients, 2 failed (3.3 %, 2 clients)',
  );
});

test('a canary whose loads fail is failing, saying which ratio and by how much', async () => {
  const verdict = await analyse(BAD);
  expect(verdict.kind).toBe('failing');
  if (verdict.kind !== 'failing') return;
  expect(verdict.canary).toMatchObject({ loads: 60, failedLoads: 15, loadFailureRatio: 0.25 });
  expect(verdict.reasons).toEqual([
    "load-failure ratio 25.0 % (15 of 60 loads, from 15 clients) against stable's 1.7 %: more than 5 points above",
  ]);
});

test('a canary whose LCP is slow is failing on p75 LCP', async () => {
  const verdict = await analyse(SLOW);
  expect(verdict.kind).toBe('failing');
  if (verdict.kind !== 'failing') return;
  expect(verdict.reasons).toHaveLength(1);
  expect(verdict.reasons[0]).toMatch(/^p75 LCP \d+ ms against stable's \d+ ms: more than 25 % and 250 ms above$/);
});

test('a canary with fewer loads than the minimum sample is inconclusive, and failures that already decide fail it', async () => {
  const verdict = await analyse(YOUNG);
  expect(verdict).toMatchObject({
    kind: 'inconclusive',
    reason: 'the canary has 5 loads, fewer than the minimum sample of 20',
  });
  // The bad canary's 15 failures are more than 5 points of even 100 loads.
  expect((await analyse(BAD, 100)).kind).toBe('failing');
  expect((await analyse(BAD, 1000)).kind).toBe('inconclusive');
});

test('with no Prometheus answering, the verdict is unreachable', async () => {
  const closed = await freePort();
  const verdict = await analyseCanary({
    prometheus: `http://127.0.0.1:${closed}`,
    remote: REMOTE,
    stable: STABLE,
    canary: GOOD,
    since: Date.now() - 60_000,
  });
  expect(verdict.kind).toBe('unreachable');
  if (verdict.kind === 'unreachable') expect(verdict.reason).toContain(`127.0.0.1:${closed} did not answer`);
});

describe('judge', () => {
  const figures = (build: string, over: Partial<BuildFigures> = {}): BuildFigures => ({
    build,
    loads: 100,
    failedLoads: 0,
    errorPages: 0,
    pageViews: 100,
    clients: 20,
    failedClients: 0,
    errorPageClients: 0,
    loadFailureRatio: 0,
    errorPageRatio: 0,
    lcpP75Ms: 1000,
    inpP75Ms: 100,
    ...over,
  });
  const thresholds = { ...DEFAULT_THRESHOLDS, minSample: 50 };

  it('fails a canary on its error pages, and on INP only past both the percent and the milliseconds', () => {
    expect(
      judge(figures('c', { errorPages: 10, errorPageRatio: 0.1, errorPageClients: 6 }), figures('s'), thresholds),
    ).toEqual([
      "error-page ratio 10.0 % (10 of 100 loads, from 6 clients) against stable's 0.0 %: more than 5 points above",
    ]);
    // 90 ms above: 90 %, but under 100 ms.
    expect(judge(figures('c', { inpP75Ms: 190 }), figures('s'), thresholds)).toEqual([]);
    expect(judge(figures('c', { inpP75Ms: 210 }), figures('s'), thresholds)).toHaveLength(1);
    // 300 ms above a 2 s LCP: 15 %, under 25 %.
    expect(judge(figures('c', { lcpP75Ms: 2300 }), figures('s', { lcpP75Ms: 2000 }), thresholds)).toEqual([]);
  });

  it('fails nothing on fewer clients than the minimum, however many events they sent', () => {
    const oneClient = figures('c', {
      failedLoads: 100,
      loadFailureRatio: 1,
      failedClients: 1,
      errorPages: 100,
      errorPageRatio: 1,
      errorPageClients: 1,
    });
    expect(judge(oneClient, figures('s'), thresholds)).toEqual([]);
    expect(judge({ ...oneClient, failedClients: 5 }, figures('s'), thresholds)).toHaveLength(1);
    // Vitals need the whole sample from enough clients too.
    expect(judge(figures('c', { lcpP75Ms: 9000, clients: 4 }), figures('s'), thresholds)).toEqual([]);
    expect(judge(figures('c', { lcpP75Ms: 9000, clients: 5 }), figures('s'), thresholds)).toHaveLength(1);
  });

  it('judges no vital without a sample of both builds', () => {
    expect(judge(figures('c', { lcpP75Ms: 9000 }), figures('s', { lcpP75Ms: undefined }), thresholds)).toEqual([]);
  });
});

describe('a stranger’s forged failures', () => {
  it('without a page move the live build’s failure count by none, and with a page each from one address fail no canary', async () => {
    // The stable build's figures are its visitors' alone: the 50 forged failures went to `other`.
    const verdict = await analyse(FORGED);
    expect(verdict.kind).toBe('healthy');
    if (verdict.kind !== 'healthy') return;
    expect(verdict.stable).toMatchObject({ build: STABLE, loads: 60, failedLoads: 1, failedClients: 1 });
    // 50 pages' failures of one address: 51 failed loads, from 2 clients, short of the 5 a judgement needs.
    expect(verdict.canary).toMatchObject({ build: FORGED, loads: 110, failedLoads: 51, clients: 61, failedClients: 2 });
  });

  it('do not abort a release run against real Prometheus: it promotes the canary its visitors found good', async () => {
    let canaryState: { id: string; percent: number } | undefined;
    const commands: DeploymentCommands = {
      withLock: (_target, _purpose, fn) => fn(),
      read: async () => ({
        id: STABLE,
        timestamp: 1,
        ...(canaryState ? { canary: { ...canaryState, since: 1 } } : {}),
      }),
      stage: async () => FORGED,
      stagedProblem: async () => undefined,
      startCanary: async (_target, id, percent) => {
        canaryState = { id, percent };
      },
      setCanaryPercent: async () => undefined,
      promoteCanary: async () => {
        canaryState = undefined;
      },
      abortCanary: async () => {
        throw new Error('the release run aborted a canary on forged telemetry');
      },
      recordJudgement: async () => undefined,
      buildIdOf: async () => FORGED,
    };
    const lines: string[] = [];
    const result = await runRelease(
      {
        target: '/srv/remotes/gifts',
        remote: REMOTE,
        buildId: FORGED,
        host: 'https://giftbox.example',
        prometheus: prometheus.url,
        key: 'k'.repeat(32),
        steps: [100],
        intervalMs: 1_000,
        maxWaits: 0,
        thresholds: { ...DEFAULT_THRESHOLDS, minSample: 20 },
        outDir: '/tmp/gate',
        out: (line) => lines.push(line),
        err: (line) => lines.push(line),
      },
      {
        commands,
        gate: async () => ({ ok: true, checks: [] }),
        analyse: (options) => analyseCanary({ ...options, since: sentFrom - 2_000 }),
        now: Date.now,
        sleep: async () => undefined,
      },
    );
    expect([result.outcome, lines.join('\n')]).toEqual(['promoted', expect.stringContaining('healthy')]);
  });
});
