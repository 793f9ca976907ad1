/**
 * @jest-environment node
 *
 * A rolling restart's last race, on Debian's nginx with the site `npm run nginx-config` renders:
 * a connection nginx opened as an API process closed its listener is reset after nginx sent the
 * request. nginx must send it, a POST included, to the next process, so a visitor's play or
 * redeem does not fail with 502 (every POST of the API is safe to send twice).
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { startStandInSite, type StandInSite } from '../testing/stand-in-site';

let site: StandInSite | undefined;
let origin: string;
/** Requests the stopping process read before its connection was reset. */
let resetRequests = 0;
/** POST bodies the live process answered. */
const answered: string[] = [];

/** A process in the instant it stops: it takes the request, then the connection is reset. */
const stopping: Server = createTcpServer((socket: Socket) => {
  socket.once('data', () => {
    resetRequests++;
    socket.resetAndDestroy();
  });
});

const live: HttpServer = createHttpServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    answered.push(body);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  });
});

function listen(server: Server | HttpServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server | HttpServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

beforeAll(async () => {
  site = await startStandInSite('nginx-api-reset', { apiPorts: [await listen(stopping), await listen(live)] });
  origin = site.origin;
}, 60_000);

afterAll(async () => {
  await site?.stop();
  await Promise.all([close(stopping), close(live)]);
});

test('a POST whose connection a stopping API process reset goes to the next process, once', async () => {
  // Round robin over two processes: of two POSTs in a row, one is sent to the stopping process first.
  for (const play of ['{"box":1}', '{"box":2}']) {
    const response = await fetch(`${origin}/api/plays`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: play,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  }
  expect(resetRequests).toBeGreaterThanOrEqual(1);
  // Each POST reached the live process exactly once, body and all.
  expect(answered).toEqual(['{"box":1}', '{"box":2}']);
});
