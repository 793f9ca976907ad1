/**
 * Starts a process and waits for its health, for the tests, the bench and scripts: exactly the
 * environment given, output to a log or pipes, stopped with SIGTERM then SIGKILL with everything
 * it started. With `exitWithParent` it goes even when this process is killed outright.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isPortInUse } from './free-port';
import { descendants, isRunning } from './process-tree';

const GUARD = join(__dirname, 'process-guard.cjs');
const POLL_MS = 100;
const DEFAULT_READY_TIMEOUT_MS = 60_000;
const DEFAULT_STOP_TIMEOUT_MS = 8_000;
const KILLED_WITHIN_MS = 5_000;
const PIPE_TAIL_BYTES = 16 * 1024;

export interface LogFile {
  file: string;
  append?: boolean;
  header?: string;
}

export interface ProcessSpec {
  name: string;
  command: string;
  args?: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  output: string | LogFile | 'pipe';
  exitWithParent?: boolean;
  /** Its own process group by default, signalled whole; false keeps it in ours, where Ctrl-C reaches it. */
  ownGroup?: boolean;
  stopTimeoutMs?: number;
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface RunningProcess {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  readonly logFile: string | undefined;
  readonly ownGroup: boolean;
  readonly stopTimeoutMs: number;
  /** 128 + n for signal n; 127 if it could not run. */
  readonly exited: Promise<number>;
  hasExited(): boolean;
  tail(lines?: number): string;
}

const running = new Set<RunningProcess>();
let exitHookInstalled = false;

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1);
}

function openLog(log: LogFile): { fd: number; offset: number } {
  mkdirSync(dirname(log.file), { recursive: true });
  const fd = openSync(log.file, log.append ? 'a' : 'w');
  const offset = log.append ? statSync(log.file).size : 0;
  if (log.header) writeSync(fd, log.header);
  return { fd, offset };
}

function lastLines(text: string, lines: number): string {
  return text.replace(/^\n+/, '').trimEnd().split('\n').slice(-lines).join('\n');
}

function pipeTail(child: ChildProcess): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      while (chunks.length > 1 && size - (chunks[0]?.length ?? 0) >= PIPE_TAIL_BYTES)
        size -= chunks.shift()?.length ?? 0;
    });
  }
  return () => Buffer.concat(chunks).subarray(-PIPE_TAIL_BYTES).toString('utf8');
}

export function startProcess(spec: ProcessSpec): RunningProcess {
  const ownGroup = spec.exitWithParent || spec.ownGroup !== false;
  const log =
    spec.output === 'pipe' ? undefined : typeof spec.output === 'string' ? { file: spec.output } : spec.output;
  const opened = log && openLog(log);
  const [command, args] = spec.exitWithParent
    ? [process.execPath, [GUARD, spec.command, ...(spec.args ?? [])]]
    : [spec.command, [...(spec.args ?? [])]];
  const stdio = opened ? opened.fd : 'pipe';
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: ownGroup,
      stdio: spec.exitWithParent ? ['ignore', stdio, stdio, 'ipc'] : ['ignore', stdio, stdio],
    });
  } finally {
    if (opened) closeSync(opened.fd);
  }
  let exitCode: number | undefined;
  let cannotRun = '';
  const exited = new Promise<number>((resolve) => {
    const done = (code: number) => {
      if (exitCode !== undefined) return;
      exitCode = code;
      running.delete(started);
      resolve(code);
    };
    child.on('error', (error) => {
      if (child.pid !== undefined) return;
      cannotRun = `\n[testbed] cannot run ${command} in ${spec.cwd}: ${error.message}`;
      done(127);
    });
    child.once('exit', (code, signal) => {
      spec.onExit?.(code, signal);
      done(exitCodeOf(code, signal));
    });
  });
  const piped = log ? undefined : pipeTail(child);
  const printed = (): string => {
    if (piped) return piped();
    try {
      return readFileSync(log?.file ?? '')
        .subarray(opened?.offset)
        .toString('utf8');
    } catch {
      return '(no log)';
    }
  };
  const started: RunningProcess = {
    name: spec.name,
    pid: child.pid ?? -1,
    child,
    logFile: log?.file,
    ownGroup,
    stopTimeoutMs: spec.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS,
    exited,
    hasExited: () => exitCode !== undefined,
    tail: (lines = 30) => lastLines(printed() + cannotRun, lines),
  };
  if (child.pid === undefined) return started;
  running.add(started);
  if (spec.exitWithParent) {
    // The guard must not keep this process alive; its IPC channel closing is its stop signal.
    child.unref();
    child.channel?.unref();
  }
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => killProcesses());
  }
  return started;
}

export type Health = string | { port: number; host?: string };

export async function answersOk(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function describe(health: Health): { probe: () => Promise<boolean>; before: string; within: string } {
  if (typeof health === 'string')
    return { probe: () => answersOk(health), before: `serving ${health}`, within: `serve ${health}` };
  const where = `port ${health.port}${health.host ? ` of ${health.host}` : ''}`;
  return {
    probe: () => isPortInUse(health.port, health.host),
    before: `accepting connections on ${where}`,
    within: `accept connections on ${where}`,
  };
}

function endsWith(started: RunningProcess, lines = 30): string {
  return `; ${started.logFile ?? 'its output'} ends with:\n${started.tail(lines)}`;
}

export async function waitUntilHealthy(
  started: RunningProcess,
  health: Health,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const { probe, before, within } = describe(health);
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (started.hasExited()) {
      const code = await started.exited;
      throw new Error(`${started.name} exited (code ${code}) before ${before}${endsWith(started)}`);
    }
    if (Date.now() > deadline)
      throw new Error(`${started.name} did not ${within} within ${timeoutMs} ms${endsWith(started)}`);
    await delay(POLL_MS);
  }
}

export async function startServer(
  spec: ProcessSpec & { health: Health; readyTimeoutMs?: number },
): Promise<RunningProcess> {
  const started = startProcess(spec);
  try {
    await waitUntilHealthy(started, spec.health, { timeoutMs: spec.readyTimeoutMs });
  } catch (error) {
    await stopProcess(started);
    throw error;
  }
  return started;
}

function kill(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function signal(started: RunningProcess, name: NodeJS.Signals): void {
  if (started.pid !== -1) kill(started.ownGroup ? -started.pid : started.pid, name);
}

/**
 * A guarded process (`exitWithParent`) does not hold this process's event loop open, so a command
 * with nothing else left to do that awaited `exited` would end silently before it: a timer holds
 * the loop while this waits. The exit code, or undefined after `timeoutMs`.
 */
export async function untilExited(started: RunningProcess, timeoutMs: number): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([started.exited, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whatever it started goes too, even descendants in groups of their own. */
export async function stopProcess(
  started: RunningProcess,
  options: { hard?: boolean; timeoutMs?: number } = {},
): Promise<number> {
  const family = started.hasExited() ? [] : descendants(started.pid);
  if (!started.hasExited()) {
    signal(started, options.hard ? 'SIGKILL' : 'SIGTERM');
    const code = await untilExited(started, options.timeoutMs ?? started.stopTimeoutMs);
    if (code === undefined) signal(started, 'SIGKILL');
  }
  const code = await untilExited(started, KILLED_WITHIN_MS);
  // SIGKILL cannot be ignored: a process still there is stuck in the kernel, and waiting on would hang the caller.
  if (code === undefined)
    throw new Error(`${started.name} (pid ${started.pid}) did not exit within ${KILLED_WITHIN_MS} ms of SIGKILL`);
  // A member that ignored the signal, or left the group, must not outlive the leader.
  signal(started, 'SIGKILL');
  for (const pid of family.reverse()) if (isRunning(pid)) kill(pid, 'SIGKILL');
  const deadline = Date.now() + KILLED_WITHIN_MS;
  while (family.some(isRunning) && Date.now() < deadline) await delay(20);
  return code;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((started) => stopProcess(started)));
}

export function killProcesses(processes: Iterable<RunningProcess> = running): void {
  for (const started of [...processes]) signal(started, 'SIGKILL');
}

export async function runToEnd(spec: ProcessSpec): Promise<number> {
  const startedAt = Date.now();
  const started = startProcess(spec);
  const code = await started.exited;
  if (code !== 0) {
    const what = [spec.command, ...(spec.args ?? [])].join(' ');
    throw new Error(`${what} failed (exit ${code})${endsWith(started, 40)}`);
  }
  return Date.now() - startedAt;
}
