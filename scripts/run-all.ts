/**
 * Runs every part at once, each as its own process on its own port, through concurrently.
 *   start: builds what is not built yet or was built from other sources (scripts/build-stamp.ts),
 *          then serves the production builds (`npm run serve`: plain node on each part's
 *          compiled server).
 *   dev:   webpack-dev-server with hot reload for every part.
 * Ctrl-C (or SIGTERM) stops them all; if one exits, the others are stopped too. Either way a
 * part still running after GRACE_MS is killed.
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

/**
 * The parts `npm start` must build first, with the reason: not built, or built from other
 * sources than today's (scripts/build-stamp.ts). A stale build is rebuilt, never served.
 */
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

/** The host's metrics port under `npm start`; every other part's is as far from it as its own port is from the host's. */
export const METRICS_BASE_PORT = 9300;

/** The part (`gifts`) a workspace (`remote-gifts`) serves. */
function partOf(workspace: string): PartName | undefined {
  if (workspace === 'host' || workspace === 'api') return workspace;
  return Object.entries(REMOTES).find(([, remote]) => remote.packageDir === workspace)?.[0] as PartName | undefined;
}

/**
 * METRICS_PORT for a part under `npm start`, so a Prometheus on this machine finds every part's
 * metrics (on loopback): host 9300, gifts 9301, redeem 9302, content 9303, api 9304. A
 * METRICS_PORT already set moves the block (it is then the host's); set empty, it switches every
 * part's metrics off. Undefined: the part is left with what it inherits.
 */
export function metricsPortOf(workspace: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = env.METRICS_PORT?.trim();
  const part = partOf(workspace);
  // Empty, or not a number (which the part's own schema then refuses, naming the variable).
  if (!part || (set !== undefined && !/^\d+$/.test(set))) return undefined;
  const base = set === undefined ? METRICS_BASE_PORT : Number(set);
  return String(base + DEFAULT_PORTS[part].port - DEFAULT_PORTS.host.port);
}

/**
 * The hostnames a developer opens the pages at: localhost, and this machine's IPv4 addresses
 * (127.0.0.1 and the LAN's), as the development servers answer on every interface.
 */
export function developmentHostnames(
  interfaces: Record<string, ReadonlyArray<{ family: string; address: string }> | undefined> = networkInterfaces(),
): string[] {
  const addresses = Object.values(interfaces).flatMap((list) =>
    (list ?? []).filter((info) => info.family === 'IPv4').map((info) => info.address),
  );
  return [...new Set(['localhost', '127.0.0.1', ...addresses])];
}

/**
 * The origins of the remotes' standalone shells under `npm run dev`, for the API's CORS_ORIGINS:
 * each shell calls the API directly from its own origin, at whichever address it was opened
 * (production allows the host's only).
 */
export function standaloneOrigins(env: NodeJS.ProcessEnv, hostnames: readonly string[]): string[] {
  return Object.values(REMOTES).flatMap((remote) =>
    hostnames.map((hostname) => `http://${hostname}:${env[remote.portEnv] || remote.port}`),
  );
}

/** Under `npm start`, each part's metrics port; under `npm run dev`, the API's CORS_ORIGINS unless set. */
function partEnv(script: 'serve' | 'dev', workspace: string): Record<string, string> {
  if (script === 'serve') {
    const metricsPort = metricsPortOf(workspace);
    return metricsPort === undefined ? {} : { METRICS_PORT: metricsPort };
  }
  if (process.env.CORS_ORIGINS) return {};
  return { CORS_ORIGINS: standaloneOrigins(process.env, developmentHostnames()).join(',') };
}

/**
 * The API's visitor cookie secret for this run, unless VISITOR_COOKIE_SECRETS is set: one for the
 * whole run, so a visitor's cookie stays good while `npm run dev` restarts the API on a change
 * (the API's own random secret would be new with each restart and log every visitor out).
 */
const RUN_SECRET = randomBytes(32).toString('base64url');

/**
 * The secret the host's server signs its pages' telemetry tickets with and the API checks them
 * with, unless PAGE_TICKET_SECRETS (or PAGE_TICKET_SECRETS_FILE) is set: the same for both, for the
 * whole run.
 */
const RUN_TICKET_SECRET = randomBytes(32).toString('base64url');

/** Whether the secret is given, as itself or as a file (`<NAME>_FILE`). */
const given = (name: string) => Boolean(process.env[name] || process.env[`${name}_FILE`]);

function developmentSecret(workspace: string): Record<string, string> {
  const secrets: Record<string, string> = {};
  if ((workspace === 'host' || workspace === 'api') && !given('PAGE_TICKET_SECRETS'))
    secrets.PAGE_TICKET_SECRETS = RUN_TICKET_SECRET;
  if (workspace === 'api' && !given('VISITOR_COOKIE_SECRETS')) secrets.VISITOR_COOKIE_SECRETS = RUN_SECRET;
  return secrets;
}

/**
 * On POSIX each part runs in its own process group, stopped as a whole (npm and the server
 * beneath it), and always with SIGTERM: npm passes the signal on to the server as well, which
 * ignores a repeated SIGTERM but takes a second SIGINT for "exit now". Ctrl-C in a terminal so
 * reaches this process only. Windows has neither: concurrently's default ends the tree there.
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
/**
 * Runs the parts with prefixed output until one ends (then stops the others) or this process
 * gets SIGINT/SIGTERM/SIGHUP (then stops them all). Resolves once every part has ended: 0 when
 * they were asked to stop, 1 when one ended on its own.
 */
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
  // Once every part has ended: the 12 s SIGKILL timer of concurrently's kill-others need not run out.
  void runParts(parts).then((code) => process.exit(code));
}

if (require.main === module) void main(process.argv[2]);
