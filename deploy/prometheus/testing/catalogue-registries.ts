/**
 * Every part's registry as its server fills it (the metric catalogue, docs/operations.md), with
 * a few observations of each series, for the tests that run deploy/prometheus's rules and the
 * dashboard's queries against a real Prometheus.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { createMetricsRegistry } from 'server/metrics';
import { countStaticRequests } from 'server/static-server';
import { REMOTE_NAMES } from 'shared/remotes';
import { METRIC } from 'shared/telemetry';
import { createHostMetrics } from 'host/server/host-metrics';

export interface CatalogueRegistries {
  /** One per API process. */
  api: Registry[];
  host: Registry;
  /** By remote. */
  remotes: Record<string, Registry>;
  /** Reports `count` loads of `remote`'s `build` that ended with `outcome`, on the first API process. */
  reportLoads(remote: string, build: string, outcome: string, count: number): void;
}

const VITAL_SECONDS_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.2, 1.5, 1.8, 2, 2.5, 3, 4, 5, 7.5, 10, 20];
const CLS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1];

function apiRegistry(): { registry: Registry; loads: Counter<string> } {
  const registry = createMetricsRegistry('api');
  const registers = [registry];
  const counter = (name: string, labelNames: string[] = []) => new Counter({ name, help: name, labelNames, registers });
  const http = new Histogram({
    name: 'giftbox_http_request_duration_seconds',
    help: 'http',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  http.observe({ method: 'GET', route: '/api/gifts/:giftId', status: '200' }, 0.004);
  http.observe({ method: 'POST', route: '/api/play', status: '200' }, 0.012);
  http.observe({ method: 'POST', route: '/api/play', status: '503' }, 2);
  const pool = new Gauge({ name: 'giftbox_db_pool_connections', help: 'pool', labelNames: ['state'], registers });
  pool.set({ state: 'total' }, 4);
  pool.set({ state: 'idle' }, 3);
  pool.set({ state: 'waiting' }, 0);
  counter('giftbox_db_errors_total', ['kind']).inc({ kind: 'unavailable' });
  const plays = counter('giftbox_plays_total', ['outcome']);
  plays.inc({ outcome: 'win' });
  plays.inc({ outcome: 'lose' }, 3);
  counter('giftbox_gifts_opened_total').inc();
  counter('giftbox_redeems_completed_total').inc();
  counter('giftbox_conflicts_total', ['route']).inc({ route: '/api/redeem/:redeemId/complete' });
  counter('giftbox_unavailable_total', ['route']).inc({ route: '/api/play' });

  const loads = counter(METRIC.remoteLoads, ['remote', 'build', 'phase', 'outcome']);
  const loadSeconds = new Histogram({
    name: METRIC.remoteLoadSeconds,
    help: 'loads',
    labelNames: ['remote', 'build', 'outcome'],
    registers,
  });
  for (const remote of REMOTE_NAMES) {
    loads.inc({ remote, build: 'b1', phase: 'render', outcome: 'ok' }, 40);
    loadSeconds.observe({ remote, build: 'b1', outcome: 'ok' }, 0.3);
  }
  loads.inc({ remote: 'gifts', build: 'b1', phase: 'chunk', outcome: 'timeout' });
  counter(METRIC.reloads, ['route', 'remote', 'build']).inc({ route: '/game', remote: 'gifts', build: 'b1' });
  counter(METRIC.errorPages, ['route', 'status', 'remote']).inc({ route: '/game', status: '500', remote: 'gifts' });
  const vitals = new Histogram({
    name: METRIC.webVitalSeconds,
    help: 'vitals',
    labelNames: ['metric', 'route', 'remote', 'build'],
    buckets: VITAL_SECONDS_BUCKETS,
    registers,
  });
  for (const [metric, seconds] of [
    ['LCP', 1.4],
    ['INP', 0.08],
    ['FCP', 0.9],
    ['TTFB', 0.2],
  ] as const) {
    vitals.observe({ metric, route: '/game', remote: 'gifts', build: 'b1' }, seconds);
    vitals.observe({ metric, route: '/', remote: 'content', build: 'c1' }, seconds);
  }
  const cls = new Histogram({
    name: METRIC.webVitalCls,
    help: 'cls',
    labelNames: ['route', 'remote', 'build'],
    buckets: CLS_BUCKETS,
    registers,
  });
  cls.observe({ route: '/game', remote: 'gifts', build: 'b1' }, 0.02);
  counter(METRIC.cspViolations, ['route', 'directive', 'blocked']).inc({
    route: '/game',
    directive: 'script-src-elem',
    blocked: 'inline',
  });
  counter(METRIC.telemetryBatches, ['result']).inc({ result: 'accepted' }, 5);
  return { registry, loads };
}

/** The host's server's own series, through its own module. */
function hostRegistry(): Registry {
  const registry = createMetricsRegistry('host');
  const metrics = createHostMetrics(registry);
  metrics.pageRendered('/game', 200);
  for (const outcome of ['hit', 'hit', 'miss'] as const) metrics.prerendered('/game', outcome);
  metrics.remoteRefreshFailed('content');
  return registry;
}

/** A remote's server's series, counted by its own handler as it answers real requests. */
async function remoteRegistry(remote: string): Promise<Registry> {
  const registry = createMetricsRegistry(remote);
  const server = createServer(
    countStaticRequests(async (req, res) => {
      res.writeHead(req.url === '/missing.js' ? 404 : 200).end();
    }, registry),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const path of ['/remoteEntry.js', '/missing.js']) await (await fetch(`${origin}${path}`)).arrayBuffer();
  await new Promise((resolve) => server.close(resolve));
  return registry;
}

export async function catalogueRegistries(apiProcesses = 2): Promise<CatalogueRegistries> {
  const apis = Array.from({ length: apiProcesses }, apiRegistry);
  const remotes = await Promise.all(REMOTE_NAMES.map(async (remote) => [remote, await remoteRegistry(remote)]));
  return {
    api: apis.map(({ registry }) => registry),
    host: hostRegistry(),
    remotes: Object.fromEntries(remotes),
    reportLoads(remote, build, outcome, count) {
      apis[0]?.loads.inc({ remote, build, phase: 'entry', outcome }, count);
    },
  };
}
