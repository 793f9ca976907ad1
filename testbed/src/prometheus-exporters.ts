/**
 * Debian's Prometheus exporters for nginx (its stub_status) and PostgreSQL, each on a free
 * loopback port, ready once its /metrics answers: what deploy/prometheus scrapes beside our own
 * servers, started the way an operator runs them.
 */
import { join } from 'node:path';
import { freePort } from './free-port';
import { startServer, type RunningProcess } from './process';

export const NGINX_EXPORTER_PATH = process.env.NGINX_EXPORTER_PATH || '/usr/bin/prometheus-nginx-exporter';
export const POSTGRES_EXPORTER_PATH = process.env.POSTGRES_EXPORTER_PATH || '/usr/bin/prometheus-postgres-exporter';

export interface ExporterOptions {
  /** Its log goes here, as <name>.log. */
  logDir: string;
  /** host:port to listen on; a free loopback port by default. */
  address?: string;
}

export interface RunningExporter extends RunningProcess {
  /** Where Prometheus scrapes it: 127.0.0.1:<port>. */
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

/**
 * prometheus-nginx-exporter reading `stubStatusUrl`. It retries nginx at start rather than exit
 * when nginx is not up yet; once running, a nginx that does not answer shows as nginx_up 0.
 */
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

/** prometheus-postgres-exporter on `databaseUrl` (postgres://user@host:port/db); pg_up says whether it got there. */
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
