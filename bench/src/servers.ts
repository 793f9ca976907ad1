/**
 * The served copies (bench/.work/run/): the federated host, its three remotes, the API, and the
 * monolith, each with the project's own production server (the host's dist-server/main.js serves
 * the monolith too: the same handler, cache and gzip rules, the same runtime configuration).
 * Ports 5300-5399 only: the browser tests use 4300 and up, `npm start` 3000 and up. Each server
 * is started, awaited and stopped by testbed/process, under its process guard: it also stops
 * when the bench is killed outright.
 */
import { join } from 'node:path';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';
import { isPortInUse } from 'testbed/free-port';
import { startServer, stopProcess, type RunningProcess } from 'testbed/process';
import { portsEnv, topologyEnv } from 'testbed/topology-env';
import { logFile, RUN_DIR } from './paths';
import type { PageIds } from './routes';

export const BASE_PORT = 5300;
/** Each remote as far from BASE_PORT as its default port is from 3000 (5301-5303), as the e2e tests do. */
export const PORTS = {
  federatedHost: BASE_PORT,
  ...(Object.fromEntries(REMOTE_NAMES.map((name) => [name, BASE_PORT + REMOTES[name].port - 3000])) as Record<
    RemoteName,
    number
  >),
  api: BASE_PORT + 4,
  monolithHost: BASE_PORT + 10,
  /** The same monolith build, server-rendered (./ssr-monolith.ts)… */
  ssrMonolithHost: BASE_PORT + 11,
  /** …and the bench's static server of its "remotes", which only that host's server reads. */
  monolithRemotes: BASE_PORT + 12,
  /** The bare server the host's page throughput is compared with (page-throughput.ts). */
  barePage: BASE_PORT + 13,
  /** The empty page, the emulated phone's least time to a first paint (empty-page.ts). */
  emptyPage: BASE_PORT + 14,
  /** Lighthouse's chromium, for its DevTools protocol. */
  lighthouseDebugging: BASE_PORT + 90,
};

/** 127.0.0.1 rather than localhost, so that no lookup tries ::1 first. */
export function originAt(port: number): string {
  return `http://127.0.0.1:${port}`;
}

export const FEDERATED_ORIGIN = originAt(PORTS.federatedHost);
export const MONOLITH_ORIGIN = originAt(PORTS.monolithHost);
export const SSR_MONOLITH_ORIGIN = originAt(PORTS.ssrMonolithHost);
export const MONOLITH_REMOTES_ORIGIN = originAt(PORTS.monolithRemotes);
export const API_ORIGIN = originAt(PORTS.api);
export const REMOTE_ORIGINS: readonly string[] = REMOTE_NAMES.map((name) => originAt(PORTS[name]));

/** The served copies' folders. */
export const RUN = {
  federated: join(RUN_DIR, 'federated'),
  monolith: join(RUN_DIR, 'monolith'),
  api: join(RUN_DIR, 'api'),
  apiData: join(RUN_DIR, 'api-data'),
  /** What the server-rendered monolith's host server reads as its remotes (./ssr-monolith.ts). */
  monolithRemotes: join(RUN_DIR, 'monolith-remotes'),
};

const READY_TIMEOUT_MS = 90_000;
const BENCH_SECRETS = {
  visitorCookie: 'bench-visitor-cookie-secret-not-for-production',
  pageTicket: 'bench-page-ticket-secret-not-for-production',
};

function pick<K extends string>(record: Record<K, number>, keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, record[key]])) as Record<K, number>;
}

/** Fails at once when a port the bench needs is taken (another bench still running?). */
export async function checkPortsFree(ports: readonly number[]): Promise<void> {
  const taken: number[] = [];
  for (const port of ports) if (await isPortInUse(port, '127.0.0.1')) taken.push(port);
  if (taken.length > 0) {
    throw new Error(`port(s) ${taken.join(', ')} already in use: is another bench running? The bench uses 5300-5399.`);
  }
}

/** What every server's environment holds: nothing of the caller's but PATH, so no developer setting leaks in. */
function serverEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    LISTEN_HOST: '127.0.0.1',
    // HOST_ORIGIN is set, as in production: the API needs its cookie's secret, and the host's
    // server and the API the pages' ticket secret.
    ...topologyEnv({
      ports: { host: PORTS.federatedHost, api: PORTS.api, ...pick(PORTS, REMOTE_NAMES) },
      manifestUrl: (name) => `${originAt(PORTS[name])}/mf-manifest.json`,
      hostOrigin: FEDERATED_ORIGIN,
      apiBaseUrl: API_ORIGIN,
      secrets: BENCH_SECRETS,
      openLimits: true,
    }),
    API_HOST: '127.0.0.1',
    // The monoliths' pages call the API from their own origins.
    CORS_ORIGINS: `${MONOLITH_ORIGIN},${SSR_MONOLITH_ORIGIN}`,
    PGLITE_DATA_DIR: RUN.apiData,
  };
}

export interface Server {
  name: string;
  origin: string;
  process: RunningProcess;
}

async function serve(
  name: string,
  dir: string,
  script: string,
  port: number,
  readyPath: string,
  env: Record<string, string> = {},
): Promise<Server> {
  const origin = originAt(port);
  const started = await startServer({
    name: `the ${name} server`,
    command: process.execPath,
    args: ['--enable-source-maps', script],
    cwd: dir,
    env: { ...serverEnv(), ...env },
    output: logFile(name),
    exitWithParent: true,
    health: `${origin}${readyPath}`,
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  return { name, origin, process: started };
}

export type ServerGroup = 'federated' | 'monolith' | 'ssr-monolith';

/** The server-rendered monolith's host: its remotes are the monolith's own files (./ssr-monolith.ts). */
function ssrMonolithEnv(): Record<string, string> {
  return {
    ...topologyEnv({
      ports: { host: PORTS.ssrMonolithHost },
      manifestUrl: (name) => `${MONOLITH_REMOTES_ORIGIN}/${name}/mf-manifest.json`,
    }),
    REMOTE_ORIGINS: `${MONOLITH_REMOTES_ORIGIN},${SSR_MONOLITH_ORIGIN}`,
  };
}

function startGroup(group: ServerGroup): Promise<Server>[] {
  if (group === 'ssr-monolith') {
    return [
      serve(
        'ssr-monolith-host',
        join(RUN.monolith, 'host'),
        'dist-server/main.js',
        PORTS.ssrMonolithHost,
        '/healthz',
        ssrMonolithEnv(),
      ),
    ];
  }
  if (group === 'monolith') {
    // The monolith is the client-rendered baseline: its server reads no remote, so its pages
    // carry neither the remotes' preloads nor their prerendered text.
    return [
      serve('monolith-host', join(RUN.monolith, 'host'), 'dist-server/main.js', PORTS.monolithHost, '/healthz', {
        ...portsEnv({ host: PORTS.monolithHost }),
        REMOTE_REFRESH_MS: '0',
      }),
    ];
  }
  return [
    serve('api', RUN.api, 'dist/index.js', PORTS.api, '/api/health'),
    serve('federated-host', join(RUN.federated, 'host'), 'dist-server/main.js', PORTS.federatedHost, '/healthz'),
    ...REMOTE_NAMES.map((name) =>
      serve(
        `federated-${name}`,
        join(RUN.federated, REMOTES[name].packageDir),
        'dist-server/main.js',
        PORTS[name],
        '/healthz',
      ),
    ),
  ];
}

/**
 * Starts the groups' servers (in parallel) and gives them once all serve: the federated group
 * is the API, the federated host and the remotes; the monolith group its host. The API takes
 * the longest (a new PGlite folder: 8-25 s here), so --check starts the federated group while
 * the monolith builds.
 */
export async function startServers(groups: readonly ServerGroup[]): Promise<Server[]> {
  const results = await Promise.allSettled(groups.flatMap(startGroup));
  const servers = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as Error] : []));
  if (failures.length > 0) {
    await Promise.all(servers.map((server) => stopProcess(server.process)));
    throw new Error(failures.map((failure) => failure.message).join('\n\n'));
  }
  return servers;
}

/** A fresh gift through the API, as the e2e tests make one (GAME_WIN_RATE=1: every play wins). */
export async function winGift(): Promise<string> {
  const response = await fetch(`${API_ORIGIN}/api/game/plays`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`POST /api/game/plays answered HTTP ${response.status}: ${body}`);
  const result = JSON.parse(body) as { outcome?: string; gift?: { giftId?: string } };
  if (result.outcome !== 'win' || !result.gift?.giftId) throw new Error(`expected a win, got ${body}`);
  return result.gift.giftId;
}

/** A redeem session for `giftId` through the API, as the browser tests open one. */
export async function openRedeem(giftId: string): Promise<string> {
  const response = await fetch(`${API_ORIGIN}/api/gifts/${giftId}/redeems`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.text();
  if (response.status !== 200 && response.status !== 201) {
    throw new Error(`POST /api/gifts/${giftId}/redeems answered HTTP ${response.status}: ${body}`);
  }
  const redeemId = (JSON.parse(body) as { redeemId?: string }).redeemId;
  if (!redeemId) throw new Error(`expected a redeem session, got ${body}`);
  return redeemId;
}

/** A fresh gift and a redeem session for it: the ids the data pages' paths take. */
export async function freshIds(): Promise<PageIds> {
  const giftId = await winGift();
  return { giftId, redeemId: await openRedeem(giftId) };
}

/** The id of the element that carries a prerendered page's data (shared/src/page-data.ts). */
const PRERENDER_STATE_ELEMENT = 'id="gift-box-prerender-state"';

/**
 * Until the server-rendered monolith's host has read its "remotes" (it reads them at start,
 * without holding its pages up): its page of `/about` then carries the prerendered page's data.
 */
export async function waitForSsrMonolith(timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const html = await fetch(`${SSR_MONOLITH_ORIGIN}/about`).then(
      (response) => response.text(),
      () => '',
    );
    if (html.includes(PRERENDER_STATE_ELEMENT)) return;
    if (Date.now() > deadline) {
      throw new Error(`the server-rendered monolith's /about carries no prerendered page after ${timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
