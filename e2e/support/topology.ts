/**
 * The production topology of README "Running in production", on this machine: nginx (Debian's,
 * with deploy/nginx's configuration: nginx-site.ts) on one public origin in front of the host's
 * server(s) (one unless told otherwise) and the host's deployed folder (published with
 * `npm run deploy -w host`, which the host's servers serve too: HOST_STATIC_ROOT), the remotes'
 * deployed folders (published with each remote's own deploy command) and API processes (two
 * unless told otherwise) on one real PostgreSQL (testbed's throwaway cluster).
 * Every process runs under testbed's process guard; `stop()` takes them all down.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { REMOTES } from 'shared/remotes';
import { deploy } from '../../deploy/deploy';
import { HOST_LAYOUT } from '../../deploy/deploy-layout';
import { type RunningNginx } from 'testbed/nginx';
import { startCluster, type Cluster } from 'testbed/postgres';
import { killProcesses, startProcess, stopProcess, waitUntilHealthy, type RunningProcess } from 'testbed/process';
import { topologyEnv, type TopologySecrets } from 'testbed/topology-env';
import { startSite } from './nginx-site';
import { freePort, startBundle } from './production';
import { LOG_DIR, REMOTE_NAMES, ROOT_DIR, TMP_DIR, type RemoteName } from './test-env';

export const TOPOLOGY_DIR = join(TMP_DIR, 'topology');
/** Each remote's deployed folder is `<this>/<remote>`, served at `/remotes/<remote>/`. */
export const REMOTES_DIR = join(TOPOLOGY_DIR, 'remotes');

export interface ApiProcess extends RunningProcess {
  port: number;
  /** Its metrics listener (METRICS_PORT), host:port on loopback. */
  metrics: string;
}

export interface Topology {
  /** The one origin visitors use: nginx. */
  origin: string;
  nginx: RunningNginx;
  /** nginx's stub_status on its loopback status server, as prometheus-nginx-exporter reads it. */
  nginxStatusUrl: string;
  /** The first of `hosts`. */
  host: RunningProcess;
  /** Every host's server nginx balances pages over (`hostCount`), with its port. */
  hosts: HostProcess[];
  /** The first host's server's metrics listener, host:port on loopback. */
  hostMetrics: string;
  apis: ApiProcess[];
  database: Cluster;
  /** A remote's deployed folder, served at `/remotes/<remote>/`: the registry's or any other. */
  remoteFolder(remote: string): string;
  /** The host's deployed folder: nginx serves it at `/`, the host's server reads its builds from it. */
  hostFolder: string;
  /**
   * Starts API process `index` again on its port with its environment, as a supervisor restarts
   * a process that died; its log goes on in the same file. Ready once its readiness answers.
   * `env` is added to its environment for this start: an operator's change of its configuration
   * (a start without it has the topology's own again).
   */
  restartApi(index: number, env?: Record<string, string>): Promise<ApiProcess>;
  /** Starts host's server `index` again, as `restartApi` does an API process; ready once its /healthz answers 200. */
  restartHost(index: number, env?: Record<string, string>): Promise<HostProcess>;
  /**
   * The topology as it started, for the next test file (shared-topology.ts): every deployed
   * folder published afresh from the parts' builds (canaries, staged and revoked builds gone),
   * each host's server started again, and each API process that stopped or whose environment
   * differs from what `settings` give it. nginx and PostgreSQL keep running.
   */
  renew(settings: TopologySettings): Promise<void>;
  stop(): Promise<void>;
}

/** What a file may set of a running topology's processes without starting another one. */
export type TopologySettings = Pick<TopologyOptions, 'hostEnv' | 'apiEnv'>;

export interface HostProcess extends RunningProcess {
  port: number;
}

export interface TopologyOptions {
  hostEnv?: Record<string, string>;
  /** How many host's servers nginx balances pages over (1 by default; not with `ports`). */
  hostCount?: number;
  /** How many API processes nginx balances over (2 by default). */
  apiCount?: number;
  /** Added to every API process's environment. */
  apiEnv?: Record<string, string>;
  /**
   * PostgreSQL as durable as in production (testbed's cluster otherwise skips fsync and
   * synchronous commits): for a run that stops it as a crash would and counts what it acknowledged.
   */
  durableDatabase?: boolean;
  /**
   * PostgreSQL's data in a temporary folder even with `dir`: its socket's path, inside the data's
   * folder, must stay under 108 bytes, which a deep `dir` would pass.
   */
  temporaryDatabase?: boolean;
  /**
   * The folder everything goes in (the remotes' folders, nginx's files, the logs and PostgreSQL's
   * data), empty or emptied by the caller; the worker's `topology/` by default (emptied here),
   * its logs then in a folder of their own among the worker's, named by when it started (a later
   * topology never overwrites those of a test that failed), its database a temporary one.
   */
  dir?: string;
  /** Each listener's port, chosen by the caller (`apiCount` is then their number); free ports of the worker's block by default. */
  ports?: TopologyPorts;
  /** The secrets the processes share; the suite's fixed ones by default. */
  secrets?: TopologySecrets;
  /**
   * How often the host's server reads each remote's deployment (REMOTE_REFRESH_MS): the suite's
   * SUITE_REMOTE_REFRESH_MS by default, so a test sees a deploy within half a second;
   * `'production'` leaves the host's own default, as production runs it.
   */
  remoteRefreshMs?: number | 'production';
}

/** The browser suite's REMOTE_REFRESH_MS: far below production's 5 s, for the tests' speed. */
export const SUITE_REMOTE_REFRESH_MS = 500;

export interface TopologyPorts {
  nginx: number;
  host: number;
  /** nginx's stub_status. */
  status: number;
  hostMetrics: number;
  apis: readonly number[];
  /** One per API process. */
  apiMetrics: readonly number[];
  database: number;
}

const TEST_SECRETS: TopologySecrets = {
  visitorCookie: 'topology-visitor-cookie-secret-for-tests-only',
  pageTicket: 'topology-page-ticket-secret-for-tests-only',
};

/** Free ports of the worker's block, one per listener. */
async function freeTopologyPorts(apiCount: number): Promise<Omit<TopologyPorts, 'database'>> {
  const [nginx, host, status] = [await freePort(), await freePort(), await freePort()];
  const apis: number[] = [];
  for (let index = 0; index < apiCount; index++) apis.push(await freePort());
  const hostMetrics = await freePort();
  const apiMetrics: number[] = [];
  for (let index = 0; index < apiCount; index++) apiMetrics.push(await freePort());
  return { nginx, host, status, apis, hostMetrics, apiMetrics };
}

/** Each remote's manifest on the public origin, where nginx serves its deployed folder. */
function manifestUrlAt(origin: string): (remote: RemoteName) => string {
  return (remote) => `${origin}/remotes/${remote}/mf-manifest.json`;
}

/** `npm run deploy -w <remote's package> -- <folder>`: what a remote team runs. */
export function deployRemote(remote: RemoteName, target: string, from?: string): Promise<string> {
  return runDeploy(REMOTES[remote].packageDir, target, from);
}

/** `npm run deploy -w host -- <folder> --from <build>`: what an operator runs to publish the host. */
export function deployHost(target: string, from = join(ROOT_DIR, 'host', 'dist')): Promise<string> {
  return runDeploy('host', target, from);
}

function runDeploy(packageDir: string, target: string, from?: string): Promise<string> {
  const args = ['run', 'deploy', '-w', packageDir, '--', target, ...(from ? ['--from', from] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`npm ${args.join(' ')} failed (${code}):\n${output}`)),
    );
  });
}

/** What each API process is started with; the ports differ. */
function apiEnv(
  origin: string,
  databaseUrl: string,
  secrets: TopologySecrets,
  port: number,
  metricsPort: number,
): Record<string, string> {
  return {
    // The builds the telemetry's labels may name: those the parts publish at the public origin;
    // pages reach the API behind nginx on that origin.
    ...topologyEnv({
      ports: { api: port },
      manifestUrl: manifestUrlAt(origin),
      hostOrigin: origin,
      apiBaseUrl: origin,
      secrets,
      openLimits: true,
    }),
    METRICS_PORT: String(metricsPort),
    API_HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '5',
    // nginx is on loopback: X-Forwarded-For from it names the visitor.
    TRUST_PROXY: 'loopback',
  };
}

/** nginx on the site file `npm run nginx-config` renders for these ports, its files in `<dir>/nginx`. */
function startTopologySite(
  dir: string,
  logDir: string,
  ports: Omit<TopologyPorts, 'database'>,
  hostPorts: ReadonlyArray<Pick<TopologyPorts, 'host'>>,
): Promise<RunningNginx> {
  const origin = `http://127.0.0.1:${ports.nginx}`;
  return startSite(
    {
      dir: join(dir, 'nginx'),
      outputLog: join(logDir, 'production-nginx.log'),
      env: {
        GIFT_BOX_LISTEN: `127.0.0.1:${ports.nginx}`,
        GIFT_BOX_SERVER_NAME: '127.0.0.1',
        GIFT_BOX_HOST_DIST: join(dir, 'host'),
        GIFT_BOX_REMOTES_DIR: join(dir, 'remotes'),
        GIFT_BOX_HOST_SERVERS: hostPorts.map(({ host }) => `127.0.0.1:${host}`).join(','),
        GIFT_BOX_API_SERVERS: ports.apis.map((port) => `127.0.0.1:${port}`).join(','),
        GIFT_BOX_STATUS_PORT: String(ports.status),
        // The tests load pages from one address far faster than a visitor: the limit stays out of their way.
        GIFT_BOX_PAGE_RATE: '10000r/s',
        GIFT_BOX_PAGE_BURST: '10000',
      },
    },
    `${origin}/remotes/${REMOTE_NAMES[0]}/builds/latest.json`,
  );
}

/** A host's server's environment behind nginx, on its port and metrics port. */
function hostEnvOf(
  ports: Pick<TopologyPorts, 'nginx' | 'host' | 'hostMetrics'>,
  secrets: TopologySecrets,
  refreshMs: number | 'production',
  hostFolder: string,
): Record<string, string> {
  const origin = `http://127.0.0.1:${ports.nginx}`;
  return {
    ...(refreshMs === 'production' ? {} : { REMOTE_REFRESH_MS: String(refreshMs) }),
    ...topologyEnv({
      ports: { host: ports.host },
      manifestUrl: manifestUrlAt(origin),
      hostOrigin: origin,
      apiBaseUrl: origin,
      secrets: { pageTicket: secrets.pageTicket },
    }),
    LISTEN_HOST: '127.0.0.1',
    TRUST_PROXY: 'loopback',
    METRICS_PORT: String(ports.hostMetrics),
    HOST_STATIC_ROOT: hostFolder,
  };
}

/** A server started again, as a supervisor restarts one that died: its log goes on in the same file. */
function startAgain(name: string, bundle: string, env: Record<string, string>, logDir: string): RunningProcess {
  const [part = '', file = ''] = bundle.split(/\/(.*)/);
  return startProcess({
    name,
    command: process.execPath,
    args: ['--enable-source-maps', file],
    cwd: join(ROOT_DIR, part),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? ROOT_DIR, ...env },
    output: {
      file: join(logDir, `production-${name}.log`),
      append: true,
      header: `\n=== e2e ${new Date().toISOString()} restarting ${name}\n`,
    },
    exitWithParent: true,
  });
}

interface HostServers {
  /** Each host's server as it runs now. */
  hosts: HostProcess[];
  /**
   * Starts server `index` (`again`: its log goes on), with `env` added to its environment, ready
   * once its own /healthz answers 200.
   */
  start(index: number, again?: boolean, env?: Record<string, string>): Promise<HostProcess>;
}

/** The host's servers nginx balances pages over, one per entry of `ports`; what starts goes in `started`. */
function hostServers(
  ports: ReadonlyArray<Pick<TopologyPorts, 'host' | 'hostMetrics'>>,
  envOf: (ports: Pick<TopologyPorts, 'host' | 'hostMetrics'>) => Record<string, string>,
  logDir: string,
  started: RunningProcess[],
): HostServers {
  const hosts: HostProcess[] = [];
  return {
    hosts,
    async start(index, again = false, added = {}) {
      const name = index === 0 ? 'topology-host' : `topology-host-${index + 1}`;
      const { host: port = 0, hostMetrics = 0 } = ports[index] ?? {};
      const env = { ...envOf({ host: port, hostMetrics }), ...added };
      const host = again
        ? startAgain(name, 'host/dist-server/main.js', env, logDir)
        : startBundle(name, join(ROOT_DIR, 'host'), 'dist-server/main.js', env, logDir);
      started.push(host);
      await waitUntilHealthy(host, `http://127.0.0.1:${port}/healthz`);
      hosts[index] = { ...host, port };
      return hosts[index];
    },
  };
}

interface ApiServers {
  /** Each API process as it runs now. */
  apis: ApiProcess[];
  /** The environment each one last started with. */
  envs: Array<Record<string, string>>;
  /** Starts process `index` (`again`: its log goes on), ready once its readiness answers. */
  start(index: number, env: Record<string, string>, again?: boolean): Promise<ApiProcess>;
}

/** The API processes nginx balances over, one per entry of `ports.apis`; what starts goes in `started`. */
function apiServers(
  ports: Pick<TopologyPorts, 'apis' | 'apiMetrics'>,
  logDir: string,
  started: RunningProcess[],
): ApiServers {
  const apis: ApiProcess[] = [];
  const envs: Array<Record<string, string>> = [];
  return {
    apis,
    envs,
    async start(index, env, again = false) {
      const name = `topology-api-${index + 1}`;
      const api = again
        ? startAgain(name, 'api/dist/index.js', env, logDir)
        : startBundle(name, join(ROOT_DIR, 'api'), 'dist/index.js', env, logDir);
      started.push(api);
      envs[index] = env;
      const port = ports.apis[index] ?? 0;
      await waitUntilHealthy(api, `http://127.0.0.1:${port}/api/health/ready`);
      apis[index] = { ...api, port, metrics: `127.0.0.1:${ports.apiMetrics[index] ?? 0}` };
      return apis[index];
    },
  };
}

/** How many API processes and host's servers to start, checked. */
function countsOf(options: TopologyOptions): { apiCount: number; hostCount: number } {
  const apiCount = options.ports?.apis.length ?? options.apiCount ?? 2;
  if (!Number.isInteger(apiCount) || apiCount < 1) throw new Error(`apiCount must be 1 or more, got ${apiCount}`);
  const hostCount = options.hostCount ?? 1;
  if (!Number.isInteger(hostCount) || hostCount < 1 || (options.ports && hostCount > 1))
    throw new Error(`hostCount must be 1 or more (1 with ports), got ${hostCount}`);
  return { apiCount, hostCount };
}

/** The first host's server on the ports named; each other one on two more of the worker's block. */
async function hostPortsOf(
  ports: Pick<TopologyPorts, 'host' | 'hostMetrics'>,
  count: number,
): Promise<Array<Pick<TopologyPorts, 'host' | 'hostMetrics'>>> {
  const hostPorts = [{ host: ports.host, hostMetrics: ports.hostMetrics }];
  while (hostPorts.length < count) hostPorts.push({ host: await freePort(), hostMetrics: await freePort() });
  return hostPorts;
}

/**
 * Every part's build, published as its deploy command does, without a process per part (the
 * command itself is what deployRemote and deployHost run, and host-publish.spec.ts's).
 */
function publishStartingBuilds(remoteFolder: (remote: string) => string, hostFolder: string): Promise<unknown> {
  return Promise.all([
    ...REMOTE_NAMES.map((remote) =>
      deploy({ source: join(ROOT_DIR, REMOTES[remote].packageDir, 'dist'), target: remoteFolder(remote) }),
    ),
    deploy({ source: join(ROOT_DIR, 'host', 'dist'), target: hostFolder, layout: HOST_LAYOUT }),
  ]);
}

/** Starts everything; what was started is stopped again if a later part fails. */
export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const { apiCount, hostCount } = countsOf(options);
  const dir = options.dir ?? TOPOLOGY_DIR;
  const remotesDir = join(dir, 'remotes');
  const logDir = options.dir
    ? join(dir, 'logs')
    : join(LOG_DIR, `topology-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(logDir, { recursive: true });
  const secrets = options.secrets ?? TEST_SECRETS;
  // The worker's folder is emptied here; a caller's own folder is the caller's to empty.
  if (!options.dir) rmSync(dir, { recursive: true, force: true });
  mkdirSync(remotesDir, { recursive: true });
  const started: RunningProcess[] = [];
  const starting = startCluster({
    durable: options.durableDatabase,
    dir: options.dir && !options.temporaryDatabase ? join(dir, 'postgres') : undefined,
    port: options.ports?.database,
  });
  try {
    const ports = options.ports ?? (await freeTopologyPorts(apiCount));
    const { status: statusPort, hostMetrics: hostMetricsPort, apis: apiPorts, apiMetrics: apiMetricsPorts } = ports;
    const origin = `http://127.0.0.1:${ports.nginx}`;
    const hostPorts = await hostPortsOf(ports, hostCount);
    const remoteFolder = (remote: string) => join(remotesDir, remote);
    const hostFolder = join(dir, 'host');
    await publishStartingBuilds(remoteFolder, hostFolder);
    const database = await starting;
    const nginx = await startTopologySite(dir, logDir, ports, hostPorts);
    started.push(nginx);
    const own: TopologySettings = { hostEnv: options.hostEnv, apiEnv: options.apiEnv };
    const envOf = (index: number) => ({
      ...apiEnv(origin, database.url, secrets, apiPorts[index] ?? 0, apiMetricsPorts[index] ?? 0),
      ...own.apiEnv,
    });
    const api = apiServers(ports, logDir, started);
    // One process at a time: the first applies the migrations; the others find none left to apply.
    for (const index of apiPorts.keys()) await api.start(index, envOf(index));
    const refreshMs = options.remoteRefreshMs ?? SUITE_REMOTE_REFRESH_MS;
    const { hosts, start: startHost } = hostServers(
      hostPorts,
      (listeners) => ({
        ...hostEnvOf({ nginx: ports.nginx, ...listeners }, secrets, refreshMs, hostFolder),
        ...own.hostEnv,
      }),
      logDir,
      started,
    );
    const startHosts = async () => {
      for (const index of hostPorts.keys()) await startHost(index, hosts.length > index);
      await waitUntilHealthy(hosts[0] ?? nginx, `${origin}/healthz`);
    };
    await startHosts();
    return {
      origin,
      nginx,
      nginxStatusUrl: `http://127.0.0.1:${statusPort}/stub_status`,
      // The first one as it runs now, restarted or not.
      get host(): RunningProcess {
        const [host] = hosts;
        if (!host) throw new Error('the topology has no host server');
        return host;
      },
      hosts,
      hostMetrics: `127.0.0.1:${hostMetricsPort}`,
      apis: api.apis,
      database,
      remoteFolder,
      hostFolder,
      restartApi: (index, env = {}) => api.start(index, { ...envOf(index), ...env }, true),
      restartHost: (index, env) => startHost(index, true, env),
      async renew(settings) {
        Object.assign(own, { hostEnv: settings.hostEnv, apiEnv: settings.apiEnv });
        await Promise.all(hosts.map((host) => stopProcess(host, { hard: true })));
        for (const folder of [remotesDir, hostFolder]) rmSync(folder, { recursive: true, force: true });
        mkdirSync(remotesDir, { recursive: true });
        await publishStartingBuilds(remoteFolder, hostFolder);
        for (const index of apiPorts.keys()) {
          const running = api.apis[index];
          if (running && !running.hasExited() && isDeepStrictEqual(api.envs[index], envOf(index))) continue;
          if (running) await stopProcess(running);
          await api.start(index, envOf(index), true);
        }
        await startHosts();
      },
      async stop() {
        await Promise.all(started.map((process) => stopProcess(process, { hard: true })));
        await database.stop();
      },
    };
  } catch (error) {
    killProcesses(started);
    await starting.then((database) => database.stop()).catch(() => undefined);
    throw error;
  }
}
