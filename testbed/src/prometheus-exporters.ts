/**
 * Debian's Prometheus exporters for nginx and PostgreSQL on free loopback ports, started as an
 * operator runs them.
 */
import { join } from 'node:path';
import { freePort } from './free-port';
import { startServer, type RunningProcess } from './process';

export const NGINX_EXPORTER_PATH = process.env.NGINX_EXPORTER_PATH || '/usr/bin/prometheus-nginx-exporter';
export const POSTGRES_EXPORTER_PATH = process.env.POSTGRES_EXPORTER_PATH || '/usr/bin/prometheus-postgres-exporter';

export interface ExporterOptions {
  logDir: string;
  address?: string;
}

export interface RunningExporter extends RunningProcess {
  address: string;
}

async function startExporter(
  name: string,
  command: string,
  args: (address: string) => string[],
  env: NodeJS.ProcessEnv,
  options: ExporterOptions,
): Promise<RunningExporter> {
  const { logDir } = options;
  const address = options.address ?? `127.0.0.1:${await freePort()}`;
  const started = await startServer({
    name,
    command,
    args: args(address),
    cwd: logDir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: logDir, ...env },
    output: join(logDir, `${name}.log`),
    exitWithParent: true,
    health: `http://${address}/metrics`,
    readyTimeoutMs: 20_000,
  });
  return { ...started, address };
}

/** It retries nginx at start rather than exit; later, a silent nginx shows as nginx_up 0. */
export function startNginxExporter(stubStatusUrl: string, options: ExporterOptions): Promise<RunningExporter> {
  return startExporter(
    'prometheus-nginx-exporter',
    NGINX_EXPORTER_PATH,
    (address) => [
      `-nginx.scrape-uri=${stubStatusUrl}`,
      `-web.listen-address=${address}`,
      '-nginx.retries=10',
      '-nginx.retry-interval=1s',
    ],
    {},
    options,
  );
}

export function startPostgresExporter(databaseUrl: string, options: ExporterOptions): Promise<RunningExporter> {
  const url = new URL(databaseUrl);
  if (!url.searchParams.has('sslmode')) url.searchParams.set('sslmode', 'disable');
  return startExporter(
    'prometheus-postgres-exporter',
    POSTGRES_EXPORTER_PATH,
    (address) => [`--web.listen-address=${address}`, '--log.level=warn'],
    { DATA_SOURCE_NAME: url.toString() },
    options,
  );
}
