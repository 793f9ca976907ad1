/**
 * What the bench starts besides its servers (builds, Lighthouse), through testbed/process: each
 * in its own process group with its output in `.work/logs/{name}.log`. Stopping them is
 * testbed's (`stopAll`; it kills whatever still runs when the bench exits).
 */
import { runToEnd as runLogged } from 'testbed/process';
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
