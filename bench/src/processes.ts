/**
 * Every process the bench starts (builds, servers), so that all of them are stopped at the end,
 * on failure and on Ctrl-C. Each runs in its own process group, which is signalled whole.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { LOG_DIR } from './paths';

const STOP_TIMEOUT_MS = 8_000;
const running = new Set<Started>();

export function logFile(name: string): string {
  return join(LOG_DIR, `${name}.log`);
}

/** The last lines of a log, for error messages. */
export function logTail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export interface Started {
  child: ChildProcess;
  log: string;
  /** The exit code (128 + n for signal n); resolves once the process has exited. */
  exited: Promise<number>;
  hasExited(): boolean;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts `command` in its own process group, its output into `.work/logs/{name}.log`. With
 * `ipc`, the child gets an IPC channel (exit-with-parent.cjs stops it when the bench is gone).
 */
export function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; ipc?: boolean },
): Started {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = logFile(name);
  const fd = openSync(log, 'w');
  let child: ChildProcess;
  try {
    child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: options.ipc ? ['ignore', fd, fd, 'ipc'] : ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  let exitCode: number | undefined;
  const exited = new Promise<number>((resolve) => {
    const done = (code: number) => {
      if (exitCode !== undefined) return;
      exitCode = code;
      running.delete(started);
      resolve(code);
    };
    child.once('error', () => done(127));
    child.once('exit', (code, signal) => done(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)));
  });
  const started: Started = { child, log, exited, hasExited: () => exitCode !== undefined };
  running.add(started);
  child.channel?.unref();
  return started;
}

/** SIGTERM to the process group, SIGKILL if it is still there after a while. */
export async function stopProcess(started: Started): Promise<void> {
  if (started.hasExited()) return;
  signalGroup(started.child, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS);
  });
  const outcome = await Promise.race([started.exited, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout') signalGroup(started.child, 'SIGKILL');
  await started.exited;
  // A grandchild that ignored the signal must not outlive its group leader.
  signalGroup(started.child, 'SIGKILL');
}

/** Stops everything still running. */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running].map((started) => stopProcess(started)));
}

/** For exit paths that cannot wait. */
export function killAllProcessesSync(): void {
  for (const { child } of running) signalGroup(child, 'SIGKILL');
  running.clear();
}

/** Runs a command to its end (a build); rejects with the log's tail when it fails. */
export async function runToEnd(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<number> {
  const started = Date.now();
  const run = startProcess(name, command, args, options);
  const code = await run.exited;
  if (code !== 0) {
    throw new Error(
      `${[command, ...args].join(' ')} failed (exit ${code}); ${run.log} ends with:\n${logTail(run.log, 40)}`,
    );
  }
  return Date.now() - started;
}
