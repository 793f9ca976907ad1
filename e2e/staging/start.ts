/**
 * Staging: the production topology of the chaos run (support/topology.ts) with no faults, on
 * ports and in a folder of its own, with Prometheus on the project's configuration and rules
 * (rendered by `npm run prometheus-config`) scraping every server and nginx and PostgreSQL through
 * their exporters. Secrets are made per run and kept in the folder.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REMOTES, REMOTE_NAMES, type RemoteName } from 'shared/remotes';
import { canListen, waitForPortFree } from 'testbed/free-port';
import { runToEnd, stopProcess, type RunningProcess } from 'testbed/process';
import { stopLeftCluster } from 'testbed/postgres';
import { startPrometheus } from 'testbed/prometheus';
import { startNginxExporter, startPostgresExporter } from 'testbed/prometheus-exporters';
import { raisedStockCatalogue } from '../support/catalogue';
import { ROOT_DIR } from '../support/test-env';
import { startTopology, type Topology } from '../support/topology';
import { STAGING_FILE, type StagingInfo } from './hints';
import { allPorts, type StagingPorts } from './options';

/** Enough of every prize that hours of visitors never run out. */
const STAGING_STOCK = 1_000_000;
/** Prometheus scrapes and evaluates this often: a release's interval sees several scrapes. */
const SCRAPE_INTERVAL = '5s';
const PORT_FREE_WITHIN_MS = 10_000;

export interface Staging {
  info: StagingInfo;
  topology: Topology;
  /** Stops every process it started; the ports still taken afterwards, if any. */
  stop(): Promise<number[]>;
}

/** The built files staging serves (`npm run build`'s output) that `root` lacks. */
export function missingBuild(root = ROOT_DIR): string[] {
  const files = [
    'api/dist/index.js',
    'host/dist/index.html',
    'host/dist-server/main.js',
    ...REMOTE_NAMES.map((remote) => `${REMOTES[remote].packageDir}/dist/mf-manifest.json`),
  ];
  return files.filter((file) => !existsSync(join(root, file)));
}

export function missingBuildMessage(missing: readonly string[]): string {
  return `${missing.join(', ')} missing: staging serves the built parts, so run npm run build first`;
}

const secret = () => randomBytes(32).toString('base64url');

/** Writes a secret to `<dir>/secrets/<name>`, readable by its owner only. */
function keep(dir: string, name: string, value: string): string {
  const file = join(dir, 'secrets', name);
  mkdirSync(join(dir, 'secrets'), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return file;
}

async function takenPorts(ports: StagingPorts): Promise<number[]> {
  const taken: number[] = [];
  for (const port of allPorts(ports)) if (!(await canListen(port))) taken.push(port);
  return taken;
}

/** `npm run prometheus-config` as an operator runs it, for this staging's listeners. */
async function prometheusConfig(dir: string, topology: Topology, exporters: string[]): Promise<string> {
  const file = join(dir, 'gift-box.yml');
  await runToEnd({
    name: 'npm run prometheus-config',
    command: 'npm',
    args: ['run', '--silent', 'prometheus-config', '--', file],
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      GIFT_BOX_METRICS_API: topology.apis.map((api) => api.metrics).join(','),
      GIFT_BOX_METRICS_HOST: topology.hostMetrics,
      GIFT_BOX_NGINX_EXPORTER: exporters[0],
      GIFT_BOX_POSTGRES_EXPORTER: exporters[1],
      GIFT_BOX_SCRAPE_INTERVAL: SCRAPE_INTERVAL,
    },
    output: join(dir, 'prometheus-config.log'),
  });
  return readFileSync(file, 'utf8');
}

/** Starts everything, or stops what it started and throws. */
export async function startStaging(dir: string, ports: StagingPorts): Promise<Staging> {
  const missing = missingBuild();
  if (missing.length > 0) throw new Error(missingBuildMessage(missing));
  if (await stopLeftCluster(join(dir, 'postgres')))
    console.log(`staging: stopped the PostgreSQL a killed run left in ${dir}`);
  const taken = await takenPorts(ports);
  if (taken.length > 0)
    throw new Error(`port ${taken.join(', ')} already in use: stop what listens there, or give --base-port`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const previewKeys = Object.fromEntries(REMOTE_NAMES.map((remote) => [remote, secret()])) as Record<
    RemoteName,
    string
  >;
  const topology = await startTopology({
    dir,
    ports,
    secrets: { visitorCookie: secret(), pageTicket: secret() },
    // A rehearsal switches builds as production does: what the docs and the release run say holds.
    remoteRefreshMs: 'production',
    apiEnv: { PRIZE_CATALOGUE_FILE: raisedStockCatalogue(join(dir, 'catalogue'), STAGING_STOCK) },
    hostEnv: Object.fromEntries(
      REMOTE_NAMES.map((remote) => [`REMOTE_${remote.toUpperCase()}_PREVIEW_KEY`, previewKeys[remote]]),
    ),
  });
  const started: (RunningProcess & { stop?: () => Promise<void> })[] = [];
  const stop = async () => {
    await Promise.all(started.map((process) => (process.stop ? process.stop() : stopProcess(process))));
    await topology.stop();
    // No staging runs here any more: sample and traffic must not find its address.
    rmSync(join(dir, STAGING_FILE), { force: true });
    const left: number[] = [];
    for (const port of allPorts(ports)) if (!(await waitForPortFree(port, PORT_FREE_WITHIN_MS))) left.push(port);
    return left;
  };
  try {
    const promDir = join(dir, 'prometheus');
    mkdirSync(promDir, { recursive: true });
    const exporters = await Promise.all([
      startNginxExporter(topology.nginxStatusUrl, { logDir: promDir, address: `127.0.0.1:${ports.nginxExporter}` }),
      startPostgresExporter(topology.database.url, {
        logDir: promDir,
        address: `127.0.0.1:${ports.postgresExporter}`,
      }),
    ]);
    started.push(...exporters);
    const config = await prometheusConfig(
      promDir,
      topology,
      exporters.map((exporter) => exporter.address),
    );
    const prometheus = await startPrometheus({ dir: promDir, config, port: ports.prometheus });
    started.push(prometheus);
    await prometheus.waitForTargetsUp(60_000);
    const info: StagingInfo = {
      dir,
      origin: topology.origin,
      hostServer: `http://127.0.0.1:${ports.host}`,
      apis: topology.apis.map((api) => `http://127.0.0.1:${api.port}`),
      prometheus: prometheus.url,
      database: topology.database.url,
      remotes: Object.fromEntries(REMOTE_NAMES.map((remote) => [remote, topology.remoteFolder(remote)])) as Record<
        RemoteName,
        string
      >,
      previewKeys: Object.fromEntries(
        REMOTE_NAMES.map((remote) => [remote, keep(dir, `preview-key-${remote}`, previewKeys[remote])]),
      ) as Record<RemoteName, string>,
      logs: join(dir, 'logs'),
    };
    writeFileSync(join(dir, STAGING_FILE), `${JSON.stringify(info, null, 2)}\n`);
    return { info, topology, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
