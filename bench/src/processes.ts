/** What the bench starts besides its servers, each in its own process group, logged in `.work/logs/`. */
import { runToEnd as runLogged } from 'testbed/process';
import { logFile } from './paths';

export function runToEnd(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<number> {
  return runLogged({ name, command, args, cwd: options.cwd, env: options.env ?? process.env, output: logFile(name) });
}
