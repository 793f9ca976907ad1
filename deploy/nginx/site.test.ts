/**
 * @jest-environment node
 *
 * The site as `npm run nginx-config` renders it, on Debian's nginx over HTTPS (a certificate
 * made for the test), in front of the host's real request handler and a stand-in for the API on
 * loopback: what its access log keeps of a request's capability ids, the
 * Strict-Transport-Security that nginx and the host's server each send, and plain HTTP sent to HTTPS.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createHostHandler } from 'host/server/host-handler';
import { listenRoutes } from 'server/testing/listen-routes';
import { createHttpsCheck } from 'host/server/https-check';
import { STRICT_TRANSPORT_SECURITY } from 'host/server/security-headers';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { freePort } from 'testbed/free-port';
import { startSiteFile, type RunningNginx } from 'testbed/nginx';
import { stopProcess } from 'testbed/process';
import { renderNginxConfig } from './render-config';

const GIFT_ID = 'GiftAbCdEfGhIjKlMnOpQrSt';
const REDEEM_ID = 'RdmXyZaBcDeFgHiJkLmNoPqR';
/** An id-like segment where no route puts one. */
const OTHER_ID = 'OthrQwErTyUiOpAsDfGhJk';
const STATIC_FILE = 'main.0123abcd.js';

let dir: string;
let cert: string;
let hostServer: Server;
let apiServer: Server;
let nginx: RunningNginx | undefined;
let port: number;
/** The plain-HTTP server's port, which redirects to HTTPS. */
let httpPort: number;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
}

/** A GET over HTTPS to nginx, trusting the test's certificate. */
function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, ca: cert, headers: { accept: 'text/html', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server | undefined): Promise<void> {
  if (!server?.listening) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The access log's lines, once it holds `count`: nginx writes a line once it has answered. */
async function accessLogLines(file: string, count: number): Promise<string[]> {
  for (;;) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    if (lines.length >= count) return lines;
    await delay(20);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nginx-site-'));
  const dist = join(dir, 'dist');
  mkdirSync(dist);
  mkdirSync(join(dir, 'remotes'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html><head><title>Gift Box</title></head><body></body></html>',
  );
  writeFileSync(join(dist, STATIC_FILE), 'console.log("host");\n');
  // A certificate for 127.0.0.1, made for the test.
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      ...['-keyout', join(dir, 'site.key'), '-out', join(dir, 'site.pem')],
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(dir, 'site.pem'), 'utf8');

  // The host's handler, believing X-Forwarded-Proto from loopback (TRUST_PROXY), as behind nginx.
  const handler = createHostHandler({
    root: dist,
    config: parseRuntimeConfig({
      remotes: everyRemote(),
      apiBaseUrl: 'https://gifts.example.com',
      remoteTimeoutMs: 4000,
    }),
    isHttps: createHttpsCheck(['loopback']),
  });
  hostServer = await listenRoutes(handler);
  apiServer = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  const hostPort = (hostServer.address() as AddressInfo).port;
  const apiPort = await listen(apiServer);
  [port, httpPort] = [await freePort(), await freePort()];
  const statusPort = await freePort();
  nginx = await startSiteFile(
    dir,
    renderNginxConfig({
      GIFT_BOX_API_SERVERS: `127.0.0.1:${apiPort}`,
      GIFT_BOX_HOST_SERVERS: `127.0.0.1:${hostPort}`,
      GIFT_BOX_HOST_DIST: dist,
      GIFT_BOX_REMOTES_DIR: join(dir, 'remotes'),
      GIFT_BOX_LISTEN: `127.0.0.1:${port} ssl`,
      GIFT_BOX_HTTP_LISTEN: `127.0.0.1:${httpPort}`,
      GIFT_BOX_TLS_CERTIFICATE: join(dir, 'site.pem'),
      GIFT_BOX_TLS_CERTIFICATE_KEY: join(dir, 'site.key'),
      GIFT_BOX_STATUS_PORT: String(statusPort),
      // The file testbed's nginx logs every other server's requests to, in nginx's own format.
      GIFT_BOX_ACCESS_LOG: join(dir, 'nginx', 'access.log'),
    }),
    statusPort,
  );
}, 60_000);

afterAll(async () => {
  if (nginx) await stopProcess(nginx);
  await Promise.all([close(hostServer), close(apiServer)]);
  rmSync(dir, { recursive: true, force: true });
});

describe("nginx's access log", () => {
  it('masks gift and redeem ids in the request line and the Referer, and leaves query strings out', async () => {
    const site = `https://127.0.0.1:${port}`;
    const requests: Array<[string, string]> = [
      [`/gifts/${GIFT_ID}?from=mail-${GIFT_ID}`, `${site}/redeem/${REDEEM_ID}?step=2`],
      [`/redeem/${REDEEM_ID}`, `${site}/gifts/${GIFT_ID}`],
      [`/api/redeems/${REDEEM_ID}`, `${site}/redeem/${REDEEM_ID}`],
      [`/api/gifts/${GIFT_ID}/redeems`, `${site}/gifts/${GIFT_ID}`],
      [`/api/elsewhere/${OTHER_ID}/x`, `${site}/elsewhere/${OTHER_ID}`],
      [`/${STATIC_FILE}`, `${site}/about`],
    ];
    for (const [path, referer] of requests) expect((await get(path, { referer })).status).toBe(200);

    const log = (await accessLogLines(nginx?.accessLog ?? '', requests.length)).join('\n');
    // Nothing past an id's first four characters: no five of them in a row.
    for (const id of [GIFT_ID, REDEEM_ID, OTHER_ID]) expect(log).not.toContain(id.slice(0, 5));
    expect(log).not.toContain('mail-');
    expect(log).not.toContain('step=');
    const gift = `${GIFT_ID.slice(0, 4)}...`;
    const redeem = `${REDEEM_ID.slice(0, 4)}...`;
    const other = `${OTHER_ID.slice(0, 4)}...`;
    const lines = log.split('\n');
    const expected = [
      [`"GET /gifts/${gift}?... HTTP/1.1" 200`, `"${site}/redeem/${redeem}?..."`],
      [`"GET /redeem/${redeem} HTTP/1.1" 200`, `"${site}/gifts/${gift}"`],
      [`"GET /api/redeems/${redeem} HTTP/1.1" 200`, `"${site}/redeem/${redeem}"`],
      [`"GET /api/gifts/${gift}/redeems HTTP/1.1" 200`, `"${site}/gifts/${gift}"`],
      [`"GET /api/elsewhere/${other}/x HTTP/1.1" 200`, `"${site}/elsewhere/${other}"`],
      // A path with no id is kept whole.
      [`"GET /${STATIC_FILE} HTTP/1.1" 200`, `"${site}/about"`],
    ];
    expected.forEach(([request, referer], index) => {
      expect(lines[index]).toContain(request);
      expect(lines[index]).toContain(referer);
    });
  });
});

describe('Strict-Transport-Security over HTTPS', () => {
  it("is one value, the host server's own, whether nginx or the host's server answered", async () => {
    const file = await get(`/${STATIC_FILE}`);
    const page = await get('/about');
    expect(file.status).toBe(200);
    expect(page.status).toBe(200);
    // The built file is nginx's answer; the page is the host server's, through nginx.
    expect(file.headers['content-type']).toMatch(/javascript/);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    expect(file.headers['strict-transport-security']).toBe(page.headers['strict-transport-security']);
  });
});

describe("the host's deployed folder", () => {
  it('never serves a deploy’s lock or its half-written files from disk', async () => {
    for (const file of ['.deploy.lock', '.3f2a9c.deploy-tmp', '_app/builds/h1/.77aa.deploy-tmp']) {
      mkdirSync(join(dir, 'dist', file, '..'), { recursive: true });
      writeFileSync(join(dir, 'dist', file), 'half an index.html');
    }
    for (const path of [
      '/.deploy.lock',
      '/.3f2a9c.deploy-tmp',
      '/_app/builds/h1/.77aa.deploy-tmp',
      '/%2Edeploy.lock',
    ]) {
      // The host's server's 404, as for any path that names no file of a build.
      const answer = await get(path, { accept: '*/*' });
      expect([path, answer.status, answer.headers['content-type']]).toEqual([path, 404, 'text/plain; charset=utf-8']);
    }
  });
});

describe("the remotes' deployed folders", () => {
  it('never serve a path with a segment starting with a dot: a deploy’s lock and its half-written files', async () => {
    const folder = join(dir, 'remotes', 'gifts');
    const files = ['remoteEntry.js', '.deploy.lock', '.3f2a9c.deploy-tmp', 'builds/b1/.77aa.deploy-tmp', '.git/config'];
    for (const file of files) {
      mkdirSync(join(folder, file, '..'), { recursive: true });
      writeFileSync(join(folder, file), 'half a remoteEntry.js');
    }
    expect((await get('/remotes/gifts/remoteEntry.js')).status).toBe(200);
    for (const path of [
      '/remotes/gifts/.deploy.lock',
      '/remotes/gifts/.3f2a9c.deploy-tmp',
      '/remotes/gifts/builds/b1/.77aa.deploy-tmp',
      '/remotes/gifts/%2Edeploy.lock',
      '/remotes/gifts/.git/config',
    ]) {
      const answer = await get(path);
      expect([path, answer.status, answer.headers['content-type']]).toEqual([path, 404, 'text/plain; charset=utf-8']);
    }
  });
});

describe('plain HTTP', () => {
  it('sends every request, whatever its method, to the same host, path and query over HTTPS', async () => {
    for (const method of ['GET', 'HEAD', 'POST']) {
      const response = await fetch(`http://127.0.0.1:${httpPort}/gifts/${GIFT_ID}?from=mail`, {
        method,
        redirect: 'manual',
      });
      expect([method, response.status, response.headers.get('location')]).toEqual([
        method,
        301,
        `https://127.0.0.1:${port}/gifts/${GIFT_ID}?from=mail`,
      ]);
    }
    // The built files and the API too: nothing is served over plain HTTP.
    for (const path of [`/${STATIC_FILE}`, '/api/health/ready']) {
      const response = await fetch(`http://127.0.0.1:${httpPort}${path}`, { redirect: 'manual' });
      expect([path, response.status]).toEqual([path, 301]);
    }
  });
});
