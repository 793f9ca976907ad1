/**
 * Section 5: how many telemetry batches one API process on PostgreSQL takes per second.
 * Each request is a beacon as the host's page sends it (`text/plain`, the host's Origin,
 * `Sec-Fetch-Site: same-site`) carrying a realistic batch of ten events (loads, vitals, a reload,
 * an error page, a CSP violation) labelled with builds the parts published, from many simulated
 * clients: each its own address in X-Forwarded-For, which the API believes from the bench's
 * loopback (TRUST_PROXY), so each has its own budget as visitors behind a proxy do.
 */
import autocannon from 'autocannon';
import { processCpuSeconds } from './cpu';
import { type Parts } from './parts';
import { median } from 'testbed/stats';
import { heading, note, rps, table } from './report';
import { type Server } from './servers';
import { type Settings } from './target';

/** The API's telemetry route (shared/telemetry's TELEMETRY_PATH: the bench speaks to the API over HTTP only). */
const TELEMETRY_PATH = '/api/telemetry';

/** A batch as the host's page sends it (shared/telemetry's TelemetryBatch). */
interface Batch {
  host: string;
  events: Record<string, string | number>[];
}

/** Distinct addresses the batches come from, so none runs out of its budget (120 a minute). */
export const SIMULATED_CLIENTS = 50_000;
const DIFFERENT_BATCHES = 64;

function pick<T>(items: readonly T[], n: number): T {
  return items[n % items.length] as T;
}

/** Ten events as a page view produces them, varied by `n`. */
function batchOf(n: number, parts: Parts): Batch {
  const gifts = pick(parts.builds.gifts, n);
  const host = pick(parts.builds.host, n);
  const events: Batch['events'] = [
    {
      kind: 'load',
      remote: 'gifts',
      build: gifts,
      phase: 'render',
      outcome: n % 17 === 0 ? 'recovered' : 'ok',
      ms: 80 + (n % 400),
    },
    {
      kind: 'load',
      remote: 'content',
      build: pick(parts.builds.content, n),
      phase: 'render',
      outcome: 'ok',
      ms: 60 + (n % 300),
    },
    {
      kind: 'load',
      remote: 'redeem',
      build: pick(parts.builds.redeem, n),
      phase: 'entry',
      outcome: n % 29 === 0 ? 'failed' : 'ok',
      ms: 120 + (n % 900),
    },
    { kind: 'vital', name: 'TTFB', value: 40 + (n % 300), route: '/game', remote: 'host', build: host },
    { kind: 'vital', name: 'FCP', value: 300 + (n % 1500), route: '/game', remote: 'host', build: host },
    { kind: 'vital', name: 'LCP', value: 600 + (n % 3000), route: '/game', remote: 'gifts', build: gifts },
    { kind: 'vital', name: 'CLS', value: (n % 30) / 100, route: '/game', remote: 'gifts', build: gifts },
    { kind: 'vital', name: 'INP', value: 40 + (n % 400), route: '/gifts/:giftId', remote: 'gifts', build: gifts },
    { kind: 'reload', route: '/gifts/:giftId', remote: 'gifts', build: gifts },
    n % 2 === 0
      ? { kind: 'error-page', route: '*', status: 404, remote: 'host' }
      : { kind: 'csp', route: '/', directive: 'script-src-elem', blocked: 'https://ads.example' },
  ];
  return { host, events };
}

/** `10.a.b.c` for client `n`. */
const addressOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

interface Run {
  rps: number;
  completed: number;
  statuses: Record<string, number>;
  cpuPerBatch: number;
}

async function run(api: Server, parts: Parts, seconds: number, connections: number): Promise<Run> {
  const bodies = Array.from({ length: DIFFERENT_BATCHES }, (_, n) => JSON.stringify(batchOf(n, parts)));
  let sent = 0;
  const cpu0 = processCpuSeconds(api.pid);
  const result = await autocannon({
    url: `${api.baseUrl}${TELEMETRY_PATH}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          origin: parts.hostOrigin,
          'sec-fetch-site': 'same-site',
        },
        setupRequest: (request) => {
          sent += 1;
          return {
            ...request,
            body: pick(bodies, sent),
            headers: { ...request.headers, 'x-forwarded-for': addressOf(sent % SIMULATED_CLIENTS) },
          };
        },
      },
    ],
  });
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, Number(count)]),
  );
  return {
    rps: result.requests.average,
    completed: result.requests.total,
    statuses,
    cpuPerBatch: ((processCpuSeconds(api.pid) - cpu0) * 1e6) / Math.max(1, result.requests.total),
  };
}

/** The value of a series of the API's metrics (`GET /metrics` on its METRICS_PORT). */
async function scrape(metricsUrl: string, name: string, labels: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`) && candidate.includes(labels));
  return Number(line?.split(' ').at(-1) ?? Number.NaN);
}

/** How many series a metric has (`_count` lines of a histogram, value lines of a counter). */
async function seriesCount(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return text.split('\n').filter((line) => line.startsWith(`${name}{`)).length;
}

export async function telemetryIngest(
  api: Server,
  metricsUrl: string,
  parts: Parts,
  settings: Settings,
): Promise<void> {
  heading(
    `5. Telemetry ingest, POST ${TELEMETRY_PATH} on PostgreSQL: beacons of 10 events from ${SIMULATED_CLIENTS} simulated clients ` +
      `(X-Forwarded-For), ${settings.connections} connections, ${settings.saturationSeconds} s after a ${settings.warmupSeconds} s warm-up, ${settings.rounds} rounds`,
  );
  note(`batch size: ${Buffer.byteLength(JSON.stringify(batchOf(1, parts)))} bytes`);
  await run(api, parts, settings.warmupSeconds, settings.connections);
  const runs: Run[] = [];
  for (let round = 1; round <= settings.rounds; round += 1)
    runs.push(await run(api, parts, settings.saturationSeconds, settings.connections));
  console.log(
    table(
      ['round', 'batches/s', 'events/s', 'CPU µs per batch', 'statuses'],
      runs.map((result, index) => [
        String(index + 1),
        rps(result.rps),
        rps(result.rps * 10),
        result.cpuPerBatch.toFixed(0),
        Object.entries(result.statuses)
          .map(([status, count]) => `${status}×${count}`)
          .join(' '),
      ]),
    ),
  );
  note(
    `median: ${rps(median(runs.map((result) => result.rps)) ?? Number.NaN)} batches/s (${rps((median(runs.map((result) => result.rps)) ?? Number.NaN) * 10)} events/s), ` +
      `${(median(runs.map((result) => result.cpuPerBatch)) ?? Number.NaN).toFixed(0)} µs of the API's CPU per batch; no database work per batch`,
  );
  const accepted = await scrape(metricsUrl, 'giftbox_telemetry_batches_total', 'result="accepted"');
  const answered204 = runs.reduce((sum, result) => sum + (result.statuses['204'] ?? 0), 0);
  note(
    `the API counted ${accepted} accepted batches (warm-up included; 204s in the measured rounds: ${answered204}); ` +
      `series of giftbox_remote_loads_total: ${await seriesCount(metricsUrl, 'giftbox_remote_loads_total')}, ` +
      `of giftbox_web_vital_seconds: ${await seriesCount(metricsUrl, 'giftbox_web_vital_seconds_count')} (bounded by the known labels)`,
  );
}
