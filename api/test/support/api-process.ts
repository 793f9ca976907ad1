/** `src/index.ts` as its own process (through tsx), as `npm run serve -w api` runs it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from 'testbed/free-port';

const API_DIR = join(__dirname, '..', '..');
// PGlite compiles and starts a whole PostgreSQL: on a loaded two-core machine that can take long.
const READY_TIMEOUT_MS = 90_000;

export interface ApiProcess {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface Exited {
  code: number | null;
  output: string;
}

function launch(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: API_DIR,
    // Only what the server needs: nothing from the test run's own configuration leaks in.
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Runs a server that is expected to refuse to start. */
export async function runToExit(env: Record<string, string>): Promise<Exited> {
  const { output, exited } = launch({ API_PORT: String(await freePort()), ...env });
  const code = await exited;
  return { code, output: output() };
}

/** Starts a server on a free port and resolves once GET /api/health answers 200. */
export async function startApi(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const { child, output, exited } = launch({ API_PORT: String(port), API_HOST: '127.0.0.1', ...env });
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`the API exited (${exitCode}) before it was ready:\n${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the API was not ready within ${READY_TIMEOUT_MS} ms:\n${output()}`);
    }
    const ready = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    child,
    output,
    async stop() {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}
