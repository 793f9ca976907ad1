/**
 * What the bench starts besides its servers (builds, Lighthouse), through testbed/process: each
 * in its own process group with its output in `.work/logs/{name}.log`; whatever still runs is
 * stopped at the end, on failure and on Ctrl-C (`stopAllProcesses`), and killed should the bench
 * exit without stopping it.
 */
import { killProcesses, runToEnd as runLogged, stopAll } from 'testbed/process';
import { logFile } from './paths';

/** Runs a command to its end (a build); resolves with its duration in ms, rejects with the log's tail when it fails. */
export function runToEnd(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<number> {
  return runLogged({ name, command, args, cwd: options.cwd, env: options.env ?? process.env, output: logFile(name) });
}

/** Stops everything the bench started that still runs, its servers included. */
export const stopAllProcesses = stopAll;

/** For exit paths that cannot wait. */
export function killAllProcessesSync(): void {
  killProcesses();
}
