/**
 * `src/index.ts` as its own process, from source through tsx as `npm run dev -w api` runs it
 * (without the watch): what the restore drill and the tests that start the API start, on a port
 * of theirs.
 * Only what the server needs is in its environment: nothing of the caller's own configuration
 * leaks in, and it reads no builds from the parts' default ports, where someone's site may run.
 */
import { join } from 'node:path';
import type { ProcessSpec } from 'testbed/process';

const API_DIR = join(__dirname, '..');

/** How to run it: tsx over the source, in the API's folder, on `port` of 127.0.0.1. */
export function apiProcessSpec(
  port: number,
  env: Record<string, string>,
): Pick<ProcessSpec, 'name' | 'command' | 'args' | 'cwd' | 'env'> {
  return {
    name: 'the API',
    command: process.execPath,
    args: ['--import', 'tsx', 'src/index.ts'],
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      BUILDS_POLL_MS: '0',
      ...env,
    },
  };
}
