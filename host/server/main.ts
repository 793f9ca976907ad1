/** The host's production server; paths are relative to this file's folder, `server/` or `dist-server/`, both beside `dist/`. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  EnvError,
  envSchema,
  fromSecretFile,
  httpOrigin,
  intBetween,
  listenAddress,
  logLevel,
  millis,
  origin,
  parseEnv,
  partPort,
  positiveInt,
  type Reader,
  secretList,
  shutdownDelay,
} from 'server/env';
import { createLogger, serverLog, setServerLog } from 'server/log';
import { MIN_TICKET_SECRET_LENGTH } from 'server/page-ticket';
import { createMetricsRegistry, METRICS_VARIABLES, metricsEnvOf } from 'server/metrics';
import { servePart } from 'server/part-server';
import { trustProxy } from 'server/trust-proxy';
import { allowedRemoteOrigins, type RuntimeConfig } from 'shared/runtime-config';
import { telemetryEnabled } from 'shared/runtime-config-checks';
import hostCss from '../src/styles/host.css';
import { createDataPages, type DataPages, DEFAULT_PAGE_DATA_TIMEOUT_MS } from './data-pages';
import { HostBuildFollower } from './host-build-follower';
import { staticRoot } from './host-build-choice';
import { createHostHandler } from './host-handler';
import { createHostMetrics, type HostMetrics } from './host-metrics';
import { createClientAddress, createHttpsCheck } from './https-check';
import { createPageTickets, type PageTickets } from './page-tickets';
import { RenderPools } from './remote-renderers';
import { sharedModulesOf } from './remote-manifest-reading';
import { createRemoteSources, type RemoteSources } from './remote-sources';
import { SiteComposition, compositionHealth } from './site-composition';
import {
  defaultOrigins,
  previewKeysFromEnv,
  productionGaps,
  runtimeConfigFromEnv,
  unreadRemotesProblem,
} from './runtime-config-from-env';

const DEFAULT_REMOTE_REFRESH_MS = 5_000;
const refreshInterval: Reader<number> = (raw, name) =>
  raw === '0' ? 0 : positiveInt(DEFAULT_REMOTE_REFRESH_MS)(raw, name);

const absoluteUrl: Reader<string | undefined> = (raw, name) => {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!httpOrigin(raw.trim()))
    throw new EnvError(`${name} must be an http(s) URL such as http://127.0.0.1:3000, got "${raw}"`);
  return raw.trim();
};

/** The runtime configuration's variables are `runtimeConfigFromEnv`'s. */
const HOST_ENV = envSchema({
  HOST_PORT: partPort('host').read,
  // Set, a production deployment: what its pages need must be named (`productionGaps`).
  HOST_ORIGIN: origin('https://gifts.example.com'),
  LISTEN_HOST: listenAddress,
  SHUTDOWN_DELAY_MS: shutdownDelay,
  REMOTE_REFRESH_MS: refreshInterval,
  TRUST_PROXY: trustProxy('X-Forwarded-Proto from any client, so any client could say how it reached the site'),
  // PAGE_DATA_TIMEOUT_MS=0 leaves data pages to the browser.
  API_INTERNAL_URL: absoluteUrl,
  PAGE_DATA_TIMEOUT_MS: millis(DEFAULT_PAGE_DATA_TIMEOUT_MS, 10_000),
  RENDER_WORKERS: intBetween(2, 1, 16),
  RENDER_WORKER_MEMORY_MB: intBetween(128, 32, 4096),
  RENDER_TIMEOUT_MS: intBetween(1_000, 50, 10_000),
  ...METRICS_VARIABLES,
  // The API's PAGE_TICKET_SECRETS too.
  PAGE_TICKET_SECRETS: fromSecretFile(secretList(MIN_TICKET_SECRET_LENGTH)),
  LOG_LEVEL: logLevel,
  HOST_STATIC_ROOT: staticRoot,
});

/** The code this bundle was built from (scripts/build-server.ts); none when run from source. */
declare const __CODE_VERSION__: string | undefined;
const CODE_VERSION = typeof __CODE_VERSION__ === 'string' ? __CODE_VERSION__ : undefined;

/** Unknown: the remotes' copies are not preloaded. */
function hostShared(root: string): Set<string> | undefined {
  try {
    return sharedModulesOf(JSON.parse(readFileSync(join(root, 'mf-manifest.json'), 'utf8')));
  } catch (error) {
    serverLog().warn(
      `${join(root, 'mf-manifest.json')} unreadable (${(error as Error).message}): pages preload no shared copies`,
    );
    return undefined;
  }
}

/** Without a secret, a warning: the API labels no build. */
function ticketsOf(secrets: string[] | undefined, config: RuntimeConfig): PageTickets | undefined {
  if (secrets?.[0]) return createPageTickets(secrets[0]);
  if (telemetryEnabled(config))
    serverLog().warn(
      'PAGE_TICKET_SECRETS is unset: pages carry no telemetry ticket, so the API labels no build from them (the release run and the build alerts see nothing); give the host and the API the same secret',
    );
  return undefined;
}

function dataPagesOf(
  env: { API_INTERNAL_URL: string | undefined; PAGE_DATA_TIMEOUT_MS: number },
  config: RuntimeConfig,
  metrics: HostMetrics | undefined,
): DataPages | undefined {
  const apiUrl = env.API_INTERNAL_URL ?? (httpOrigin(config.apiBaseUrl) ? config.apiBaseUrl : undefined);
  const timeoutMs = env.PAGE_DATA_TIMEOUT_MS;
  if (!apiUrl && timeoutMs > 0) {
    serverLog().warn(
      'API_BASE_URL is not absolute and API_INTERNAL_URL is unset: gift and redeem pages are rendered in the browser',
    );
  }
  if (!apiUrl || timeoutMs === 0) return undefined;
  return createDataPages({
    apiUrl,
    timeoutMs,
    onOutcome: metrics && ((route, outcome) => metrics.dataPage(route, outcome)),
  });
}

/** Exits when the folder holds no build of this server's code. */
async function followBuilds(folder: string, refreshMs: number): Promise<HostBuildFollower> {
  try {
    const builds = await HostBuildFollower.open({ folder, codeVersion: CODE_VERSION });
    builds.start(refreshMs || DEFAULT_REMOTE_REFRESH_MS);
    return builds;
  } catch (error) {
    console.error(`[host] cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
}

/** Every problem of the environment reported at once. */
function readStart() {
  const problems: string[] = [];
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      problems.push((error as Error).message);
      return undefined;
    }
  };
  const env = attempt(() => parseEnv(HOST_ENV));
  const config = attempt(() => runtimeConfigFromEnv(process.env));
  const followed = attempt(() => defaultOrigins(process.env));
  const previewKeys = attempt(() => previewKeysFromEnv(process.env, config && Object.keys(config.remotes)));
  // An unreadable configuration leaves telemetry on, its default.
  problems.push(...productionGaps(process.env, { telemetry: config === undefined || telemetryEnabled(config) }));
  const unread = env && config && unreadRemotesProblem(config, env.REMOTE_REFRESH_MS);
  if (unread) problems.push(unread);
  if (!env || !config || !followed || !previewKeys || problems.length > 0) {
    console.error(`[host] cannot start: ${problems.join('\n')}`);
    process.exit(1);
  }
  return { env, config, followed, previewKeys };
}

async function main(): Promise<void> {
  const { env, config, followed, previewKeys } = readStart();
  setServerLog(createLogger('host', env.LOG_LEVEL));
  const { HOST_PORT: port, LISTEN_HOST: listenHost, SHUTDOWN_DELAY_MS: shutdownDelayMs } = env;
  const { REMOTE_REFRESH_MS: refreshMs, TRUST_PROXY: trustProxySetting } = env;
  const folder = env.HOST_STATIC_ROOT ?? join(__dirname, '..', 'dist');
  const builds = await followBuilds(folder, refreshMs);
  // Fixed by the code version: read once.
  const root = builds.root();
  const metricsEnv = metricsEnvOf(env);
  const registry = metricsEnv.metricsPort === undefined ? undefined : createMetricsRegistry('host');
  const metrics = registry && createHostMetrics(registry);
  let sources: RemoteSources | undefined;
  // Not ready until each remote was read once: earlier pages would lack preloads and text.
  let starting = false;
  const site = new SiteComposition({ config, snapshot: (remote) => sources?.snapshot(remote) });
  const renderPools = new RenderPools({
    size: env.RENDER_WORKERS,
    memoryMb: env.RENDER_WORKER_MEMORY_MB,
    timeoutMs: env.RENDER_TIMEOUT_MS,
  });
  if (refreshMs > 0) {
    sources = createRemoteSources({
      remotes: config.remotes,
      grants: config,
      allowedOrigins: allowedRemoteOrigins(config),
      hostShared: hostShared(root),
      onFailure: metrics && ((remote) => metrics.remoteRefreshFailed(remote)),
      renderPools,
    });
    starting = true;
    void sources.refresh().finally(() => {
      starting = false;
      // Its refusals are logged once the remotes are first read, not at the first page.
      site.current();
    });
    sources.start(refreshMs);
  }
  const dataPages = dataPagesOf(env, config, metrics);
  const handler = createHostHandler({
    root: () => builds.root(),
    unservable: () => builds.unservable(),
    otherFiles: folder,
    config,
    sources,
    hostCss: String(hostCss),
    followed,
    isHttps: createHttpsCheck(trustProxySetting),
    metrics,
    dataPages: sources && dataPages,
    previewKeys,
    tickets: ticketsOf(env.PAGE_TICKET_SECRETS, config),
    site,
  });
  void servePart('host', port, handler, {
    buildFile: () => builds.buildFile(),
    healthDetails: () => ({ published: builds.published(), composition: compositionHealth(site.current()) }),
    isStarting: () => starting,
    listenHost,
    shutdownDelayMs,
    metrics: registry && { registry, ...metricsEnv },
    clientAddress: createClientAddress(trustProxySetting),
    onStopped: () => {
      builds.stop();
      return renderPools.close();
    },
    // With REMOTE_REFRESH_MS=0 no remote is read, and a reload still never stops the server.
    onReload: async () => {
      await Promise.all([builds.refresh(), sources?.refresh()]);
    },
  });
}

void main();
