/**
 * While the server closes, a request that arrives on a kept-alive connection that already carried
 * one is refused in the one error shape, with CORS headers, not with Fastify's own 503 body; a
 * connection's first request is served, as nginx sends it, and cannot send elsewhere once sent.
 */
import { connect } from 'node:net';
import { type AddressInfo } from 'node:net';
import { type App } from '../src/app-context';
import { buildApp } from '../src/server';
import { testConfig } from './support/test-config';
import { openTestDb, type TestDb } from './support/test-db';

let testDb: TestDb;
let app: App;

beforeAll(async () => {
  testDb = await openTestDb('pglite');
});
afterAll(async () => {
  await testDb.close();
});

function request(path: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost:3000\r\nConnection: keep-alive\r\n\r\n`;
}

it('answers a request arriving while closing with 503 in the one error shape, with CORS headers', async () => {
  app = await buildApp({ config: testConfig(), db: testDb.db });
  let release: () => void = () => undefined;
  let arrived: () => void = () => undefined;
  const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
  // An in-flight request that keeps its connection busy while the server starts closing.
  app.get('/api/test-slow', async () => {
    arrived();
    await new Promise<void>((resolve) => (release = resolve));
    return { status: 'ok' };
  });
  let closing: () => void = () => undefined;
  const closingStarted = new Promise<void>((resolve) => (closing = resolve));
  app.addHook('preClose', async () => closing());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(request('/api/test-slow'));
  await slowArrived;

  const closed = app.close();
  await closingStarted;
  // A second request on the busy connection (which closing does not cut), once closing began.
  socket.write(request('/api/health'));
  await new Promise((resolve) => setTimeout(resolve, 100));
  release();
  await closed;
  await ended;

  const answers = received.split(/(?=HTTP\/1\.1 )/);
  expect(answers).toHaveLength(2);
  expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
  const [head = '', body = ''] = (answers[1] ?? '').split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 503 /);
  expect(head.toLowerCase()).toContain('access-control-allow-origin: http://localhost:3000');
  expect(head.toLowerCase()).toContain('connection: close');
  expect(head.toLowerCase()).toContain('content-type: application/json');
  expect(JSON.parse(body)).toStrictEqual({
    statusCode: 503,
    statusMessage: 'Service Unavailable',
    message: 'The service is shutting down. Try again in a moment.',
  });
});

it("serves a connection's first request arriving while closing, then closes the connection", async () => {
  // What nginx does: a connection per request, opened as the listener still accepts, its request
  // sent there, and a POST never sent to another process once sent.
  app = await buildApp({ config: testConfig(), db: testDb.db });
  let sendRequest: () => Promise<void> = async () => undefined;
  // Closing has begun (the app's own preClose hook ran first), the listener not closed yet.
  app.addHook('preClose', async () => sendRequest());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const accepted = new Promise<void>((resolve) => app.server.once('connection', () => resolve()));
  const socket = connect(port, '127.0.0.1');
  let received = '';
  const answered = new Promise<void>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (received.includes('\r\n\r\n')) resolve();
    }),
  );
  await accepted;
  sendRequest = async () => {
    socket.write(request('/api/health/live'));
    await answered;
  };
  await app.close();
  socket.destroy();

  const head = received.split('\r\n\r\n')[0] ?? '';
  expect(head).toMatch(/^HTTP\/1\.1 200 /);
  expect(head.toLowerCase()).toContain('connection: close');
});
