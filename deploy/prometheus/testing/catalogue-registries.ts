/**
 * Every part's registry, made by the parts' own metric modules (the metric catalogue,
 * docs/operations.md), with a few observations of each series: for the tests that run
 * deploy/prometheus's rules and the dashboard's queries against a real Prometheus, so a series or
 * label renamed in a part fails them.
 */
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { createMetricsRegistry } from 'server/metrics';
import { countStaticRequests } from 'server/static-part';
import { listenRoutes } from 'server/testing/listen-routes';
import { REMOTE_NAMES } from 'shared/remotes';
import { CLIENT_SIGNALS } from 'shared/telemetry';
import { createTelemetryMetrics, type TelemetryMetrics } from 'api/src/features/telemetry/telemetry-metrics';
import { type PartCanary } from 'api/src/features/telemetry/build-registry';
import { registerCanaryGauges } from 'api/src/features/telemetry/canary-gauges';
import { createApiMetrics } from 'api/src/metrics/api-metrics';
import { createHostMetrics } from 'host/server/host-metrics';

export interface CatalogueRegistries {
  /** One per API process. */
  api: Registry[];
  host: Registry;
  /** By remote. */
  remotes: Record<string, Registry>;
  /** Reports `count` loads of `remote`'s `build` that ended with `outcome`, on the first API process. */
  reportLoads(remote: string, build: string, outcome: string, count: number): void;
  /** Counts `count` clients that reported `signal` for `remote`'s `build`, on the first API process. */
  reportClients(remote: string, build: string, signal: string, count: number): void;
  /** Every API process reads `canary` running for its part (`remote`), as its deployment says. */
  runCanary(canary: PartCanary): void;
}

/** An API process's series, through the API's own modules, with a few requests and reports. */
function apiRegistry(canaries: () => readonly PartCanary[]): { registry: Registry; telemetry: TelemetryMetrics } {
  const registry = createMetricsRegistry('api');
  registerCanaryGauges(registry, canaries);
  const api = createApiMetrics(registry);
  api.httpDuration.observe({ method: 'GET', route: '/api/gifts/:giftId', status: '200' }, 0.004);
  api.httpDuration.observe({ method: 'POST', route: '/api/play', status: '200' }, 0.012);
  api.httpDuration.observe({ method: 'POST', route: '/api/play', status: '503' }, 2);
  api.watchPool(() => ({ total: 4, idle: 3, waiting: 0 }));
  api.databaseErrors.inc({ kind: 'unavailable' });
  api.plays.inc({ outcome: 'win' });
  api.plays.inc({ outcome: 'lose' }, 3);
  api.giftsOpened.inc();
  api.redeemsCompleted.inc();
  api.conflicts.inc({ route: '/api/redeem/:redeemId/complete' });
  api.unavailable.inc({ route: '/api/play' });

  const telemetry = createTelemetryMetrics(registry, console);
  for (const remote of REMOTE_NAMES) {
    telemetry.remoteLoads.inc({ remote, build: 'b1', phase: 'render', outcome: 'ok' }, 40);
    telemetry.remoteLoadSeconds.observe({ remote, build: 'b1', outcome: 'ok' }, 0.3);
  }
  telemetry.remoteLoads.inc({ remote: 'gifts', build: 'b1', phase: 'chunk', outcome: 'timeout' });
  telemetry.reloads.inc({ route: '/game', remote: 'gifts', build: 'b1' });
  telemetry.errorPages.inc({ route: '/game', status: '500', remote: 'gifts', build: 'b1' });
  telemetry.remoteFallbacks.inc({ remote: 'gifts', from: 'b2', to: 'b1' });
  for (const signal of CLIENT_SIGNALS) telemetry.buildClients.inc({ remote: 'gifts', build: 'b1', signal });
  for (const [metric, seconds] of [
    ['LCP', 1.4],
    ['INP', 0.08],
    ['FCP', 0.9],
    ['TTFB', 0.2],
  ] as const) {
    telemetry.webVitalSeconds.observe({ metric, route: '/game', remote: 'gifts', build: 'b1' }, seconds);
    telemetry.webVitalSeconds.observe({ metric, route: '/', remote: 'content', build: 'c1' }, seconds);
  }
  telemetry.webVitalCls.observe({ route: '/game', remote: 'gifts', build: 'b1' }, 0.02);
  telemetry.cspViolations.inc({ route: '/game', directive: 'script-src-elem', blocked: 'inline', source: 'page' });
  telemetry.batches.inc({ result: 'accepted' }, 5);
  return { registry, telemetry };
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
  const server = await listenRoutes((app) => {
    countStaticRequests(app, registry);
    app.get('/*', async (request, reply) => reply.code(request.url === '/missing.js' ? 404 : 200).send());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const path of ['/remoteEntry.js', '/missing.js']) await (await fetch(`${origin}${path}`)).arrayBuffer();
  await new Promise((resolve) => server.close(resolve));
  return registry;
}

export async function catalogueRegistries(apiProcesses = 2): Promise<CatalogueRegistries> {
  const canaries = new Map<string, PartCanary>();
  const apis = Array.from({ length: apiProcesses }, () => apiRegistry(() => [...canaries.values()]));
  const remotes = await Promise.all(REMOTE_NAMES.map(async (remote) => [remote, await remoteRegistry(remote)]));
  return {
    api: apis.map(({ registry }) => registry),
    host: hostRegistry(),
    remotes: Object.fromEntries(remotes),
    reportLoads(remote, build, outcome, count) {
      apis[0]?.telemetry.remoteLoads.inc({ remote, build, phase: 'entry', outcome }, count);
    },
    reportClients(remote, build, signal, count) {
      apis[0]?.telemetry.buildClients.inc({ remote, build, signal }, count);
    },
    runCanary(canary) {
      canaries.set(canary.part, canary);
    },
  };
}
