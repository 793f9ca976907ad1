/**
 * The process as an orchestrator runs it: bounded requests (REQUEST_TIMEOUT_MS), and a shutdown
 * that turns readiness off first (SHUTDOWN_DELAY_MS, while requests are still served), then
 * drains and exits 0.
 */
import { connect } from 'node:net';
import { TIMEOUTS } from '../src/server';
import { type ApiProcess, startApi } from './support/api-process';

let api: ApiProcess;

beforeAll(async () => {
  api = await startApi({
    PGLITE_DATA_DIR: 'memory://',
    GAME_WIN_RATE: '0',
    SHUTDOWN_DELAY_MS: '1500',
    REQUEST_TIMEOUT_MS: '1000',
  });
});
afterAll(async () => {
  await api.stop();
});

/** Sends `text` on a new connection and resolves with what came back and when the server closed it. */
function stall(text: string): Promise<{ received: string; closedAfterMs: number }> {
  const { port, hostname } = new URL(api.baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ received, closedAfterMs: Date.now() - started }));
    // Bounded: fail rather than wait forever if the server never gives up.
    setTimeout(() => {
      socket.destroy();
      resolve({ received, closedAfterMs: Number.POSITIVE_INFINITY });
    }, 20_000).unref();
  });
}

it('answers or closes a request whose body or headers never finish within REQUEST_TIMEOUT_MS', async () => {
  const [body, headers] = await Promise.all([
    stall(
      'POST /api/game/plays HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    ),
    stall('GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: '),
  ]);
  console.log(`stalled body closed after ${body.closedAfterMs} ms, stalled headers after ${headers.closedAfterMs} ms`);
  // Well before the default bound: the variable, not the default, set it.
  expect(body.closedAfterMs).toBeLessThan(TIMEOUTS.requestMs);
  expect(body.received).toMatch(/^HTTP\/1\.1 408 /);
  expect(headers.closedAfterMs).toBeLessThan(TIMEOUTS.headersMs);
});

it('on SIGTERM turns readiness off first, keeps serving through SHUTDOWN_DELAY_MS, then drains and exits 0', async () => {
  const get = (path: string) => fetch(`${api.baseUrl}${path}`).then((response) => response.status);
  expect(await get('/api/health/ready')).toBe(200);
  const exited = new Promise<number | null>((resolve) => api.child.once('exit', resolve));
  const signalledAt = Date.now();
  api.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await get('/api/health/ready')).toBe(503);
  expect(await get('/api/health/live')).toBe(200);
  const play = await fetch(`${api.baseUrl}/api/game/plays`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(play.status).toBe(200);
  expect(await exited).toBe(0);
  expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1_500);
});
