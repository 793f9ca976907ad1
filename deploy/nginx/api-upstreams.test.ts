/**
 * @jest-environment node
 *
 * How the site, as `npm run nginx-config` renders it on Debian's nginx, treats the API processes
 * behind it when they answer 503: the API says so when the database is unreachable, which every
 * process shares. Two stand-ins for API processes on loopback answer 503, then 200 again, as
 * around a database restart: nginx must not leave them out (its passive health check) once the
 * database is back.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from 'testbed/free-port';
import { startSiteFile, type RunningNginx } from 'testbed/nginx';
import { stopProcess } from 'testbed/process';
import { renderNginxConfig } from './render-config';

let dir: string;
let nginx: RunningNginx | undefined;
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
  dir = mkdtempSync(join(tmpdir(), 'nginx-api-upstreams-'));
  const dist = join(dir, 'dist');
  mkdirSync(dist);
  mkdirSync(join(dir, 'remotes'));
  apis.push(apiStandIn(), apiStandIn());
  const apiPorts = await Promise.all(apis.map(listen));
  const [port, statusPort, hostPort] = [await freePort(), await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  nginx = await startSiteFile(
    dir,
    renderNginxConfig({
      GIFT_BOX_API_SERVERS: apiPorts.map((apiPort) => `127.0.0.1:${apiPort}`).join(','),
      GIFT_BOX_HOST_SERVERS: `127.0.0.1:${hostPort}`,
      GIFT_BOX_HOST_DIST: dist,
      GIFT_BOX_REMOTES_DIR: join(dir, 'remotes'),
      GIFT_BOX_LISTEN: `127.0.0.1:${port}`,
      GIFT_BOX_STATUS_PORT: String(statusPort),
      GIFT_BOX_ACCESS_LOG: 'off',
    }),
    statusPort,
  );
}, 60_000);

afterAll(async () => {
  if (nginx) await stopProcess(nginx);
  await Promise.all(apis.map(close));
  rmSync(dir, { recursive: true, force: true });
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
