/**
 * `src/index.ts` as its own process (through tsx), as `npm run serve -w api` runs it: started,
 * awaited and stopped by testbed/process, in the test run's process group (Ctrl-C reaches it),
 * `child` the server itself.
 */
import { type ChildProcess } from 'node:child_process';
import { freePort } from 'testbed/free-port';
import { apiProcessSpec } from '../../scripts/api-process';
import { startProcess, stopProcess, waitUntilHealthy, type RunningProcess } from 'testbed/process';
import { TEST_TICKET_SECRET, TEST_VISITOR_SECRET } from './test-config';
import { pgliteTemplate } from './test-db';

// PGlite compiles and starts a whole PostgreSQL: on a loaded two-core machine that can take long.
const READY_TIMEOUT_MS = 90_000;
// Past the API's own bound (10 s for in-flight requests, then closing its database).
const STOP_TIMEOUT_MS = 20_000;

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

async function launch(
  port: number,
  env: Record<string, string>,
): Promise<{ started: RunningProcess; output: () => string }> {
  // A new PGlite starts from the run's template rather than running initdb, seconds of CPU.
  const template = await pgliteTemplate();
  const started = startProcess({
    // Every process signs the visitor cookie with the tests' secret, so a cookie made by
    // `visitorWithId` is good.
    ...apiProcessSpec(port, {
      VISITOR_COOKIE_SECRETS: TEST_VISITOR_SECRET.toString(),
      PAGE_TICKET_SECRETS: TEST_TICKET_SECRET,
      ...(template ? { PGLITE_INITIAL_DATA: template } : {}),
      ...env,
    }),
    output: 'pipe',
    ownGroup: false,
    stopTimeoutMs: STOP_TIMEOUT_MS,
  });
  let output = '';
  started.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  started.child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { started, output: () => output };
}

/** Runs a server that is expected to refuse to start. */
export async function runToExit(env: Record<string, string>): Promise<Exited> {
  const { started, output } = await launch(await freePort(), env);
  const code = await started.exited;
  return { code, output: output() };
}

export interface LaunchedApi {
  baseUrl: string;
  started: RunningProcess;
  output: () => string;
}

/** Starts a server on a free port without waiting for it (`startApi` waits). */
export async function launchApi(env: Record<string, string>): Promise<LaunchedApi> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  return { baseUrl, ...(await launch(port, env)) };
}

/** Resolves once GET /api/health of a launched server answers 200; stops it if it never does. */
export async function untilHealthy({ baseUrl, started, output }: LaunchedApi): Promise<ApiProcess> {
  try {
    await waitUntilHealthy(started, `${baseUrl}/api/health`, { timeoutMs: READY_TIMEOUT_MS });
  } catch (error) {
    await stopProcess(started, { hard: true });
    throw error;
  }
  return { baseUrl, child: started.child, output, stop: () => stopProcess(started) };
}

/** Starts a server on a free port and resolves once GET /api/health answers 200. */
export async function startApi(env: Record<string, string>): Promise<ApiProcess> {
  return untilHealthy(await launchApi(env));
}
