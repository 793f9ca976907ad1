/**
 * Runs every part at once, each as its own process on its own port, through concurrently.
 *   start: builds what is not built yet, then serves the production builds (`npm run serve`:
 *          plain node on each part's compiled server).
 *   dev:   webpack-dev-server with hot reload for every part.
 * Ctrl-C (or SIGTERM) stops them all; if one exits, the others are stopped too. Either way a
 * part still running after GRACE_MS is killed.
 */
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createConcurrently as concurrently,
  KillOthers,
  LogError,
  LogExit,
  Logger,
  type ConcurrentlyCommandInput,
} from 'concurrently';
import { REMOTES } from 'shared/remotes';
import { LogLines } from './log-lines';

const ROOT = join(__dirname, '..');
/** Past the API's own bound (10 s for in-flight requests, then closing its database). */
export const GRACE_MS = 12_000;

/**
 * Files that exist once a part has been built: its server bundle, and its web build's last
 * file. Any one missing (say, a web build from before the servers were bundled) means
 * `npm run build -w <part>`. The remotes are those of the registry (`shared/src/remotes.ts`).
 */
const PARTS: Record<string, string[]> = {
  api: ['dist/index.js'],
  ...Object.fromEntries(
    Object.values(REMOTES).map((remote) => [remote.packageDir, ['dist/builds/latest.json', 'dist-server/main.js']]),
  ),
  host: ['dist/_app/builds/latest.json', 'dist-server/main.js'],
};
const COLOURS = ['cyan', 'magenta', 'yellow', 'green', 'blue'];

function buildMissing(): void {
  for (const [part, markers] of Object.entries(PARTS)) {
    if (markers.every((marker) => existsSync(join(ROOT, part, marker)))) continue;
    console.log(`[run-all] building ${part}`);
    // Through a shell, so Windows finds npm.cmd (Node refuses to spawn .cmd files without one).
    const result = spawnSync(`npm run build -w ${part}`, { cwd: ROOT, stdio: 'inherit', shell: true });
    if (result.status !== 0) {
      console.error(`[run-all] building ${part} failed`);
      process.exit(result.status ?? 1);
    }
  }
}

/**
 * In development each remote also runs its standalone shell on its own origin, which calls the
 * API directly; let the API accept those origins too (production allows the host's only).
 */
function partEnv(script: 'serve' | 'dev'): Record<string, string> {
  if (script !== 'dev' || process.env.CORS_ORIGINS) return {};
  const origins = Object.values(REMOTES).map(
    (remote) => `http://localhost:${process.env[remote.portEnv] || remote.port}`,
  );
  return { CORS_ORIGINS: origins.join(',') };
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

function main(mode: string | undefined): void {
  if (mode !== 'start' && mode !== 'dev') {
    console.error('usage: tsx scripts/run-all.ts start|dev');
    process.exit(2);
  }
  if (mode === 'start') buildMissing();
  const script = mode === 'start' ? 'serve' : 'dev';
  const parts = Object.keys(PARTS).map((name) => ({
    name,
    command: `npm run --silent ${script} -w ${name}`,
    env: partEnv(script),
  }));
  // Once every part has ended: the 12 s SIGKILL timer of concurrently's kill-others need not run out.
  void runParts(parts).then((code) => process.exit(code));
}

if (require.main === module) main(process.argv[2]);
