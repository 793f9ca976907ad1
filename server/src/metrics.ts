/** Prometheus metrics on a listener of their own (METRICS_PORT), never the public port a proxy routes visitors to. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { DEFAULT_METRICS_HOST, METRICS_VARIABLES } from './env';
import { serverLog } from './log';

export { DEFAULT_METRICS_HOST, METRICS_VARIABLES };

export const METRICS_PATH = '/metrics';

export interface MetricsEnv {
  /** Undefined: no metrics listener. */
  metricsPort: number | undefined;
  metricsHost: string;
}

export function metricsEnvOf(values: { METRICS_PORT: number | undefined; METRICS_HOST: string }): MetricsEnv {
  return { metricsPort: values.METRICS_PORT, metricsHost: values.METRICS_HOST };
}

/** The process's own metrics too, every series labelled with the part. */
export function createMetricsRegistry(part: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ part });
  collectDefaultMetrics({ register: registry });
  return registry;
}

export interface MetricsListener {
  server: Server;
  port: number;
  close(): Promise<void>;
}

export async function listenMetrics(
  registry: Registry,
  port: number,
  host = DEFAULT_METRICS_HOST,
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        serverLog().error({ err: error }, 'collecting metrics failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
