/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Registry } from 'prom-client';
import { createLogger } from './log';
import { listenPart, type PartRoutes, type PartServer, type PartServerOptions, servePart } from './part-server';
import { serveRemoteDist } from './static-part';

/** What a test's part answers every path but health with. */
type RequestHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;
const routesOf =
  (handler: RequestHandler): PartRoutes =>
  (app) =>
    void app.all('/*', handler);

const started: Server[] = [];
const signals = ['SIGINT', 'SIGTERM'] as const;
const listenersBefore = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
/** What the servers in this file logged, a parsed line each. */
const logged: Array<Record<string, unknown>> = [];
const log = createLogger('test', 'info', { write: (line: string) => void logged.push(JSON.parse(line)) });
let tmp: string;
/** What every server in this file reports as its build, unless a test says otherwise. */
let buildFile: string;
const BUILD_ID = 'c35f29a5-a23f-4db1-8c22-216bebc6615a';

function urlOf(server: Server, path = '/'): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
}

function options(overrides: Partial<PartServerOptions> = {}): PartServerOptions {
  return { buildFile, listenHost: '127.0.0.1', log, ...overrides };
}

async function start(handler: RequestHandler, name = 'test'): Promise<Server> {
  const { server } = await servePart(name, 0, routesOf(handler), options());
  started.push(server);
  return server;
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'part-server-test-'));
  buildFile = join(tmp, 'latest.json');
  writeFileSync(buildFile, `${JSON.stringify({ id: BUILD_ID, timestamp: 1 })}\n`);
});

afterAll(async () => {
  await Promise.all(
    started.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
  // servePart() registers process-wide signal handlers that call process.exit; leave none behind.
  for (const signal of signals) {
    const before = listenersBefore.get(signal) ?? [];
    for (const listener of process.listeners(signal)) {
      if (!before.includes(listener)) process.removeListener(signal, listener);
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

describe('servePart', () => {
  it('listens and answers with the handler', async () => {
    const server = await start(async (request, reply) => reply.type('text/plain').send(`hello ${request.url}`));
    expect(server.listening).toBe(true);
    const res = await fetch(urlOf(server, '/there'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello /there');
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 30,
        name: 'test',
        msg: expect.stringMatching(/^listening on http:\/\/127\.0\.0\.1:\d+$/),
      }),
    );
  });

  it('registers SIGINT and SIGTERM handlers to close the server', async () => {
    await start(async () => '');
    for (const signal of signals) {
      expect(process.listeners(signal).length).toBeGreaterThan((listenersBefore.get(signal) ?? []).length);
    }
  });

  it('leaves no signal listener on the process once its caller shut it down', async () => {
    const counts = () => ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => process.listenerCount(signal));
    const before = counts();
    const part = await servePart(
      'stopped',
      0,
      routesOf(async () => ''),
      options({ onReload: async () => undefined }),
    );
    expect(counts()).toEqual(before.map((count) => count + 1));
    expect(await part.shutdown()).toBe(true);
    expect(counts()).toEqual(before);
  });

  it('answers 500 when the handler rejects, and keeps serving', async () => {
    let calls = 0;
    const server = await start(async () => {
      calls += 1;
      if (calls === 1) throw new Error('handler exploded');
      return 'recovered';
    }, 'flaky');
    const failed = await fetch(urlOf(server));
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe('Internal Server Error');
    // pino's shape: the error, with its stack, under `err`; the request's id as in its request line.
    const failure = logged.find((line) => line.msg === 'request failed');
    expect(failure).toMatchObject({ level: 50, url: '/', err: { message: 'handler exploded' } });
    expect(String((failure?.err as { stack?: string }).stack)).toContain('handler exploded');
    expect(logged).toContainEqual(
      expect.objectContaining({ reqId: failure?.reqId, res: { statusCode: 500 }, msg: 'request completed' }),
    );
    const next = await fetch(urlOf(server));
    expect(next.status).toBe(200);
    expect(await next.text()).toBe('recovered');
  });

  it('drops the connection when the handler fails after the response started, and keeps serving', async () => {
    const server = await start(async (request, reply) => {
      if (request.url === '/ok') return 'fine';
      reply.raw.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '100' });
      reply.raw.write('partial');
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error('failed mid-stream');
    });
    await expect(fetch(urlOf(server, '/stream')).then((res) => res.text())).rejects.toThrow();
    const next = await fetch(urlOf(server, '/ok'));
    expect(await next.text()).toBe('fine');
  });

  // A route may be a plain function, and one that throws must not take the whole process down.
  it('answers 500 when the handler throws synchronously, and keeps serving', async () => {
    let calls = 0;
    const handler: RequestHandler = (_request, reply) => {
      calls += 1;
      if (calls === 1) throw new Error('thrown synchronously');
      return reply.send('recovered');
    };
    const server = await start(handler, 'sync');
    const failed = await fetch(urlOf(server), { signal: AbortSignal.timeout(1000) });
    expect(failed.status).toBe(500);
    const next = await fetch(urlOf(server), { signal: AbortSignal.timeout(1000) });
    expect(await next.text()).toBe('recovered');
  });

  it("answers /healthz itself, ahead of a handler that answers every path as the host's pages do", async () => {
    const server = await start(async (_request, reply) =>
      reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><title>Page not found</title>'),
    );
    const health = await fetch(urlOf(server, '/healthz?probe=lb'), { headers: { Accept: 'text/html' } });
    expect(health.status).toBe(200);
    expect(health.headers.get('cache-control')).toBe('no-store');
    expect(await health.json()).toStrictEqual({ status: 'ok', build: BUILD_ID });
    const page = await fetch(urlOf(server, '/healthz/'));
    expect(page.status).toBe(404);
    await page.arrayBuffer();
  });

  it('rejects when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as AddressInfo;
      await expect(
        servePart(
          'clash',
          port,
          routesOf(async () => ''),
          options(),
        ),
      ).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('serveRemoteDist', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'serve-remote-test-'));
    writeFileSync(join(root, 'remoteEntry.js'), 'var remote = 1;\n');
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('serves the folder with CORS for the host origin only', async () => {
    const { server } = await serveRemoteDist('remote', {
      part: 'gifts',
      port: 0,
      root,
      hostOrigin: 'http://localhost:3000',
      listenHost: '127.0.0.1',
      log,
    });
    started.push(server);
    const fromHost = await fetch(urlOf(server, '/remoteEntry.js'), { headers: { Origin: 'http://localhost:3000' } });
    expect(fromHost.status).toBe(200);
    expect(fromHost.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(await fromHost.text()).toBe('var remote = 1;\n');
    const fromElsewhere = await fetch(urlOf(server, '/remoteEntry.js'), { headers: { Origin: 'http://evil.example' } });
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
    await fromElsewhere.arrayBuffer();
    const missing = await fetch(urlOf(server, '/nope.js'));
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
  });

  it('answers /healthz from builds/latest.json, 503 until a build is deployed, never with a file of that name', async () => {
    const target = mkdtempSync(join(tmpdir(), 'serve-remote-deploy-'));
    try {
      const { server } = await serveRemoteDist('remote', {
        part: 'gifts',
        port: 0,
        root: target,
        hostOrigin: 'http://localhost:3000',
        listenHost: '127.0.0.1',
        log,
      });
      started.push(server);
      writeFileSync(join(target, 'healthz'), 'a file in the folder');
      const empty = await fetch(urlOf(server, '/healthz'));
      expect(empty.status).toBe(503);
      expect(await empty.json()).toStrictEqual({ status: 'unavailable' });
      mkdirSync(join(target, 'builds'));
      writeFileSync(join(target, 'builds', 'latest.json'), '{"id":"the-deployed-build","timestamp":1}\n');
      const deployed = await fetch(urlOf(server, '/healthz'));
      expect(deployed.status).toBe(200);
      expect(await deployed.json()).toStrictEqual({ status: 'ok', build: 'the-deployed-build' });
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});

/** A port nothing listens on right now (the system picks it). */
function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    }),
  );
}

async function scrape(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('metrics', () => {
  const notFound: RequestHandler = async (_request, reply) => reply.code(404).send('Not found');

  function registryWithOneAnswer(): Registry {
    const registry = new Registry();
    new Counter({ name: 'test_answers_total', help: 'Answers.', registers: [registry] }).inc();
    return registry;
  }

  it('serves the registry on a listener of its own, never on the public port, and closes it after the drain', async () => {
    const serving = await open(notFound, {
      metrics: { registry: registryWithOneAnswer(), metricsPort: 0, metricsHost: '127.0.0.1' },
    });
    const port = serving.metrics?.port ?? 0;
    expect(await scrape(port)).toContain('test_answers_total 1');
    expect(logged).toContainEqual(expect.objectContaining({ msg: `metrics on http://127.0.0.1:${port}/metrics` }));
    const onPublicPort = await fetch(urlOf(serving.server, '/metrics'));
    expect(onPublicPort.status).toBe(404);
    expect(await onPublicPort.text()).toBe('Not found');
    expect(await serving.shutdown()).toBe(true);
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('starts no metrics listener without a port', async () => {
    const serving = await open(notFound, {
      metrics: { registry: registryWithOneAnswer(), metricsPort: undefined, metricsHost: '127.0.0.1' },
    });
    expect(serving.metrics).toBeUndefined();
  });

  it('does not start when its metrics port is taken, naming the variables, and frees its own port', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const taken = (blocker.address() as AddressInfo).port;
      const port = await freePort();
      const metrics = { registry: registryWithOneAnswer(), metricsPort: taken, metricsHost: '127.0.0.1' };
      await expect(listenPart('clash', port, routesOf(notFound), options({ metrics }))).rejects.toThrow(
        `[clash] cannot serve metrics on 127.0.0.1:${taken} (METRICS_PORT, METRICS_HOST)`,
      );
      // The public port is free again: nothing half-started is left listening.
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

/** A request handler that waits until the test lets it answer, and says when it has begun. */
function heldHandler(): { handler: RequestHandler; begun: Promise<void>; release: () => void } {
  let begin = () => undefined as void;
  let release = () => undefined as void;
  const begun = new Promise<void>((resolve) => (begin = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const handler: RequestHandler = async () => {
    begin();
    await released;
    return 'finished';
  };
  return { handler, begun, release };
}

async function open(handler: RequestHandler, overrides: Partial<PartServerOptions> = {}): Promise<PartServer> {
  const serving = await listenPart('drain', 0, routesOf(handler), options(overrides));
  started.push(serving.server);
  return serving;
}

describe('shutdown', () => {
  it('turns health to 503 at once, refuses new connections, lets the request in flight finish, then closes', async () => {
    const held = heldHandler();
    const serving = await open(held.handler);
    const url = urlOf(serving.server, '/');
    const { port } = serving.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const socketClosed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('GET /slow HTTP/1.1\r\nHost: test\r\n\r\n');
    await held.begun;

    const drained = serving.shutdown();
    // A load balancer's check on its kept-alive connection, behind the request in flight.
    socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
    await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    held.release();

    expect(await drained).toBe(true);
    await socketClosed;
    const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(first).toMatch(/finished$/);
    expect(second).toMatch(/^HTTP\/1\.1 503 Service Unavailable/);
    expect(second).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(second).toMatch(/\{"status":"unavailable"\}\n$/);
    expect(serving.server.listening).toBe(false);
  });

  it('closes idle kept-alive connections rather than waiting for them to time out', async () => {
    const serving = await open(async () => 'ok', { shutdownTimeoutMs: 4000 });
    const res = await fetch(urlOf(serving.server, '/'));
    expect(await res.text()).toBe('ok');
    const begun = Date.now();
    expect(await serving.shutdown()).toBe(true);
    expect(Date.now() - begun).toBeLessThan(1000);
  });

  it('with a delay, keeps serving while health answers 503, then closes', async () => {
    const serving = await open(async () => 'still served');
    const url = urlOf(serving.server, '/');
    const drained = serving.shutdown(400);
    const health = await fetch(urlOf(serving.server, '/healthz'));
    expect(health.status).toBe(503);
    expect(health.headers.get('connection')).toBe('close');
    await health.arrayBuffer();
    const page = await fetch(url);
    expect(await page.text()).toBe('still served');
    expect(await drained).toBe(true);
    await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });

  it('ends a delay under way when asked to shut down without one', async () => {
    const serving = await open(async () => 'ok');
    const begun = Date.now();
    const drained = serving.shutdown(60_000);
    expect(serving.shutdown(0)).toBe(drained);
    expect(await drained).toBe(true);
    expect(Date.now() - begun).toBeLessThan(1000);
  });

  it('is bounded: drops a request still open after the timeout and says so', async () => {
    const held = heldHandler();
    const serving = await open(held.handler, { shutdownTimeoutMs: 200 });
    const request = fetch(urlOf(serving.server, '/hangs'));
    await held.begun;
    try {
      expect(await serving.shutdown()).toBe(false);
      await expect(request).rejects.toThrow();
    } finally {
      held.release();
    }
  });
});

describe('servePart on a signal', () => {
  let exit: jest.SpyInstance;

  beforeEach(() => {
    exit = jest.spyOn(process, 'exit').mockImplementation(() => undefined as never);
  });

  afterEach(() => exit.mockRestore());

  /** Starts a server and gives the signal handler servePart() registered for it. */
  async function startSignalled(
    overrides: Partial<PartServerOptions> = {},
  ): Promise<{ server: Server; signal: (name: NodeJS.Signals) => void }> {
    const before = process.listeners('SIGTERM');
    const { server } = await servePart(
      'signalled',
      0,
      routesOf(async () => 'ok'),
      options(overrides),
    );
    started.push(server);
    const listener = process.listeners('SIGTERM').find((candidate) => !before.includes(candidate));
    if (!listener) throw new Error('servePart registered no SIGTERM handler');
    return { server, signal: (name) => listener(name) };
  }

  async function exitCode(): Promise<unknown[][]> {
    const deadline = Date.now() + 2000;
    while (exit.mock.calls.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return exit.mock.calls;
  }

  it('drains on SIGTERM, then exits 0; the repeat npm forwards changes nothing', async () => {
    const { server, signal } = await startSignalled();
    await (await fetch(urlOf(server, '/'))).text();
    signal('SIGTERM');
    signal('SIGTERM');
    expect(await exitCode()).toStrictEqual([[0]]);
    expect(server.listening).toBe(false);
  });

  it('waits SHUTDOWN_DELAY_MS after SIGTERM, health 503 meanwhile; a SIGINT ends the wait', async () => {
    const { server, signal } = await startSignalled({ shutdownDelayMs: 60_000 });
    signal('SIGTERM');
    const health = await fetch(urlOf(server, '/healthz'));
    expect(health.status).toBe(503);
    await health.arrayBuffer();
    signal('SIGTERM');
    expect(server.listening).toBe(true);
    signal('SIGINT');
    expect(await exitCode()).toStrictEqual([[0]]);
    expect(server.listening).toBe(false);
  });

  it('stops what the server started (its workers) once drained, before it exits', async () => {
    const order: string[] = [];
    exit.mockImplementation(() => {
      order.push('exit');
      return undefined as never;
    });
    const started = { server: undefined as Server | undefined };
    const { server, signal } = await startSignalled({
      onStopped: async () => {
        await Promise.resolve();
        order.push(started.server?.listening ? 'stopped while serving' : 'stopped after the drain');
      },
    });
    started.server = server;
    signal('SIGTERM');
    expect(await exitCode()).toStrictEqual([[0]]);
    expect(order).toEqual(['stopped after the drain', 'exit']);
  });

  it('does not wait SHUTDOWN_DELAY_MS on SIGINT', async () => {
    const { server, signal } = await startSignalled({ shutdownDelayMs: 60_000 });
    signal('SIGINT');
    expect(await exitCode()).toStrictEqual([[0]]);
    expect(server.listening).toBe(false);
  });
});
