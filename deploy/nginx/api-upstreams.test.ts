/**
 * @jest-environment node
 *
 * How the site, as `npm run nginx-config` renders it on Debian's nginx, treats the API processes
 * behind it when they answer 503: the API says so when the database is unreachable, which every
 * process shares. Two stand-ins for API processes on loopback answer 503, then 200 again, as
 * around a database restart: nginx must not leave them out (its passive health check) once the
 * database is back.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStandInSite, type StandInSite } from '../testing/stand-in-site';

let site: StandInSite | undefined;
let origin: string;
const apis: Server[] = [];
/** What every stand-in answers: 503 while the database is "down". */
let databaseUp = true;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A stand-in API process: the API's answers with the database up, and its 503 without. */
function apiStandIn(): Server {
  return createServer((_req, res) => {
    if (databaseUp) res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
    else
      res
        .writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '2' })
        .end('{"statusCode":503,"message":"The service is briefly unavailable. Try again in a moment."}');
  });
}

async function status(method: 'GET' | 'POST'): Promise<number> {
  const response = await fetch(`${origin}/api/health/ready`, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
    body: method === 'POST' ? '{}' : undefined,
  });
  await response.arrayBuffer();
  return response.status;
}

beforeAll(async () => {
  apis.push(apiStandIn(), apiStandIn());
  site = await startStandInSite('nginx-api-upstreams', { apiPorts: await Promise.all(apis.map(listen)) });
  origin = site.origin;
}, 60_000);

afterAll(async () => {
  await site?.stop();
  await Promise.all(apis.map(close));
});

test("the API's 503 reaches the visitor, and every process gets the next request once the database is back", async () => {
  databaseUp = false;
  // Each process says 503, to reads and writes alike, more often than there are processes.
  for (let attempt = 0; attempt < 2 * apis.length; attempt++) {
    expect(await status('GET')).toBe(503);
    expect(await status('POST')).toBe(503);
  }
  databaseUp = true;
  // The database is back: no process was left out for fail_timeout, so no "no live upstreams" 502.
  for (let attempt = 0; attempt < 2 * apis.length; attempt++) {
    expect(await status('GET')).toBe(200);
    expect(await status('POST')).toBe(200);
  }
});
