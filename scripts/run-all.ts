/**
 * Runs every part at once through concurrently: `start` builds what is stale and serves the
 * production builds, `dev` runs the development servers. If one exits, the others are stopped.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import {
  createConcurrently as concurrently,
  KillOthers,
  LogError,
  LogExit,
  Logger,
  type ConcurrentlyCommandInput,
} from 'concurrently';
import { DEFAULT_PORTS, type PartName } from 'shared/ports';
import { REMOTES } from 'shared/remotes';
import { buildParts } from './build-all';
import { PARTS, staleReason } from './build-stamp';
import { LogLines } from './log-lines';

const ROOT = join(__dirname, '..');
/** Past the API's own bound (10 s for in-flight requests, then closing its database). */
export const GRACE_MS = 12_000;

const COLOURS = ['cyan', 'magenta', 'yellow', 'green', 'blue'];

export function partsToBuild(root = ROOT): Array<{ part: string; reason: string }> {
  return Object.keys(PARTS).flatMap((part) => {
    const reason = staleReason(root, part);
    return reason ? [{ part, reason }] : [];
  });
}

async function buildMissing(): Promise<void> {
  const stale = partsToBuild();
  if (stale.length === 0) return;
  for (const { part, reason } of stale) console.log(`[run-all] building ${part}: ${reason}`);
  const failed = await buildParts(stale.map(({ part }) => part));
  if (failed.length > 0) {
    console.error(`[run-all] building ${failed.join(', ')} failed`);
    process.exit(1);
  }
}

export const METRICS_BASE_PORT = 9300;

function partOf(workspace: string): PartName | undefined {
  if (workspace === 'host' || workspace === 'api') return workspace;
  return Object.entries(REMOTES).find(([, remote]) => remote.packageDir === workspace)?.[0] as PartName | undefined;
}

/**
 * Host 9300, then each part as far from it as its own port is from the host's; a METRICS_PORT set
 * moves the block, set empty switches metrics off.
 */
export function metricsPortOf(workspace: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = env.METRICS_PORT?.trim();
  const part = partOf(workspace);
  if (!part || (set !== undefined && !/^\d+$/.test(set))) return undefined;
  const base = set === undefined ? METRICS_BASE_PORT : Number(set);
  return String(base + DEFAULT_PORTS[part].port - DEFAULT_PORTS.host.port);
}

export function developmentHostnames(
  interfaces: Record<string, ReadonlyArray<{ family: string; address: string }> | undefined> = networkInterfaces(),
): string[] {
  const addresses = Object.values(interfaces).flatMap((list) =>
    (list ?? []).filter((info) => info.family === 'IPv4').map((info) => info.address),
  );
  return [...new Set(['localhost', '127.0.0.1', ...addresses])];
}

/** Each shell calls the API from its own origin (production allows the host's only). */
export function standaloneOrigins(env: NodeJS.ProcessEnv, hostnames: readonly string[]): string[] {
  return Object.values(REMOTES).flatMap((remote) =>
    hostnames.map((hostname) => `http://${hostname}:${env[remote.portEnv] || remote.port}`),
  );
}

function partEnv(script: 'serve' | 'dev', workspace: string): Record<string, string> {
  if (script === 'serve') {
    const metricsPort = metricsPortOf(workspace);
    return metricsPort === undefined ? {} : { METRICS_PORT: metricsPort };
  }
  if (process.env.CORS_ORIGINS) return {};
  return { CORS_ORIGINS: standaloneOrigins(process.env, developmentHostnames()).join(',') };
}

/** One for the whole run, so a visitor stays signed in while `npm run dev` restarts the API. */
const RUN_SECRET = randomBytes(32).toString('base64url');

const RUN_TICKET_SECRET = randomBytes(32).toString('base64url');

const given = (name: string) => Boolean(process.env[name] || process.env[`${name}_FILE`]);

function developmentSecret(workspace: string): Record<string, string> {
  const secrets: Record<string, string> = {};
  if ((workspace === 'host' || workspace === 'api') && !given('PAGE_TICKET_SECRETS'))
    secrets.PAGE_TICKET_SECRETS = RUN_TICKET_SECRET;
  if (workspace === 'api' && !given('VISITOR_COOKIE_SECRETS')) secrets.VISITOR_COOKIE_SECRETS = RUN_SECRET;
  return secrets;
}

/**
 * Each part in its own process group, always SIGTERM: npm passes it on, and a second SIGINT would
 * mean "exit now" to the server.
 */
const processGroups =
  process.platform === 'win32'
    ? {}
    : {
        spawn: (command: string, options: SpawnOptions) => spawn(command, { ...options, shell: true, detached: true }),
        kill: (pid: number, signal?: string) => {
          try {
            process.kill(-pid, signal === 'SIGKILL' ? 'SIGKILL' : 'SIGTERM');
          } catch {
            // the group has already gone
          }
        },
      };
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export async function runParts(parts: ConcurrentlyCommandInput[], graceMs = GRACE_MS): Promise<number> {
  const logger = new Logger({});
  // concurrently's own signal handling would pass SIGINT on as it is and never force a kill.
  const { commands, result } = concurrently(parts, {
    cwd: ROOT,
    logger,
    outputStream: process.stdout,
    prefixColors: COLOURS,
    controllers: [
      new LogError({ logger }),
      new LogLines(logger),
      new LogExit({ logger }),
      new KillOthers({ logger, conditions: ['success', 'failure'], killSignal: 'SIGTERM', timeoutMs: graceMs }),
    ],
    ...processGroups,
  });
  let signalled = false;
  const stopAll = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    logger.logGlobalEvent(`${signal}: stopping every part`);
    commands.forEach((command) => command.kill('SIGTERM'));
    setTimeout(() => commands.forEach((command) => command.kill('SIGKILL')), graceMs).unref();
  };
  const onExit = () => commands.forEach((command) => command.kill('SIGTERM'));
  for (const signal of STOP_SIGNALS) process.on(signal, stopAll);
  process.on('exit', onExit);
  await result.catch(() => undefined);
  for (const signal of STOP_SIGNALS) process.off(signal, stopAll);
  process.off('exit', onExit);
  return signalled ? 0 : 1;
}

async function main(mode: string | undefined): Promise<void> {
  if (mode !== 'start' && mode !== 'dev') {
    console.error('usage: tsx scripts/run-all.ts start|dev');
    process.exit(2);
  }
  if (mode === 'start') await buildMissing();
  const script = mode === 'start' ? 'serve' : 'dev';
  const parts = Object.keys(PARTS).map((name) => ({
    name,
    command: `npm run --silent ${script} -w ${name}`,
    env: { ...partEnv(script, name), ...developmentSecret(name) },
  }));
  void runParts(parts).then((code) => process.exit(code));
}

if (require.main === module) void main(process.argv[2]);
