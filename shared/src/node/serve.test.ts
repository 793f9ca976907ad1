/** @jest-environment node */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, serveRemoteDist } from './serve';
import type { RequestHandler } from './static-server';

const started: Server[] = [];
const signals = ['SIGINT', 'SIGTERM'] as const;
const listenersBefore = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
let logSpy: jest.SpyInstance;
let errorSpy: jest.SpyInstance;

function urlOf(server: Server, path = '/'): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
}

async function start(handler: RequestHandler, name = 'test'): Promise<Server> {
  const server = await serve(name, 0, handler);
  started.push(server);
  return server;
}

beforeAll(() => {
  logSpy = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  errorSpy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
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
  // serve() registers process-wide signal handlers that call process.exit; leave none behind.
  for (const signal of signals) {
    const before = listenersBefore.get(signal) ?? [];
    for (const listener of process.listeners(signal)) {
      if (!before.includes(listener)) process.removeListener(signal, listener);
    }
  }
  logSpy.mockRestore();
  errorSpy.mockRestore();
});

describe('serve', () => {
  it('listens and answers with the handler', async () => {
    const server = await start(async (req, res) => {
      res.setHeader('Content-Type', 'text/plain');
      res.end(`hello ${req.url}`);
    });
    expect(server.listening).toBe(true);
    const res = await fetch(urlOf(server, '/there'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello /there');
    expect(logSpy).toHaveBeenCalledWith(expect.stringContaining('[test] listening on http://localhost:'));
  });

  it('registers SIGINT and SIGTERM handlers to close the server', async () => {
    await start(async (_req, res) => void res.end());
    for (const signal of signals) {
      expect(process.listeners(signal).length).toBeGreaterThan((listenersBefore.get(signal) ?? []).length);
    }
  });

  it('answers 500 when the handler rejects, and keeps serving', async () => {
    let calls = 0;
    const server = await start(async (_req, res) => {
      calls += 1;
      if (calls === 1) throw new Error('handler exploded');
      res.end('recovered');
    }, 'flaky');
    const failed = await fetch(urlOf(server));
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe('Internal Server Error');
    expect(errorSpy).toHaveBeenCalledWith('[flaky] request failed', expect.objectContaining({ message: 'handler exploded' }));
    const next = await fetch(urlOf(server));
    expect(next.status).toBe(200);
    expect(await next.text()).toBe('recovered');
  });

  it('drops the connection when the handler fails after the response started, and keeps serving', async () => {
    const server = await start(async (req, res) => {
      if (req.url === '/ok') {
        res.end('fine');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '100' });
      res.write('partial');
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error('failed mid-stream');
    });
    await expect(fetch(urlOf(server, '/stream')).then((res) => res.text())).rejects.toThrow();
    const next = await fetch(urlOf(server, '/ok'));
    expect(await next.text()).toBe('fine');
  });

  // RequestHandler's type allows a plain function, and one that throws before returning its
  // promise must not take the whole process down.
  it('answers 500 when the handler throws synchronously, and keeps serving', async () => {
    let calls = 0;
    const handler: RequestHandler = (_req, res) => {
      calls += 1;
      if (calls === 1) throw new Error('thrown synchronously');
      res.end('recovered');
      return Promise.resolve();
    };
    const server = await start(handler, 'sync');
    const failed = await fetch(urlOf(server), { signal: AbortSignal.timeout(1000) });
    expect(failed.status).toBe(500);
    const next = await fetch(urlOf(server), { signal: AbortSignal.timeout(1000) });
    expect(await next.text()).toBe('recovered');
  });

  it('rejects when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    try {
      const { port } = blocker.address() as AddressInfo;
      await expect(serve('clash', port, async (_req, res) => void res.end())).rejects.toMatchObject({
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
    const server = await serveRemoteDist('remote', 0, root, 'http://localhost:3000');
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
});
