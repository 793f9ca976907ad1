/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, setServerLog } from 'server/log';
import { listenPart, type PartRoutes, type PartServer } from 'server/part-server';
import { listenRoutes } from 'server/testing/listen-routes';
import { composeRoutes, grantsOf, registryRoutes } from 'shared/composition';
import { REMOTE_NAMES } from 'shared/remotes';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { createHostHandler, HOST_BUILD_FILE } from './host-handler';
import { securityHeaders } from './security-headers';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SECRET = 'TOP-SECRET-OUTSIDE-DIST';
const INDEX_HTML =
  '<!doctype html><html><head><title>Gift Box</title><script defer src="/main.1a2b3c4d.js"></script></head>' +
  '<body><div id="root"></div></body></html>\n';
const MAIN_JS = 'console.log("host");\n';
const LATEST = '{"id":"c35f29a5-a23f-4db1-8c22-216bebc6615a","timestamp":1700000000000}\n';
/** What a browser sends when navigating. */
const NAVIGATE = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

const config = parseRuntimeConfig({
  remotes: {
    ...everyRemote(),
    gifts: 'https://gifts.example.com/mf-manifest.json',
    redeem: 'https://redeem.example.com/mf-manifest.json',
    content: 'https://content.example.com/mf-manifest.json',
  },
  apiBaseUrl: 'https://api.example.com',
  remoteTimeoutMs: 4000,
});
/** What the server sends of it: the configuration with the route table it composed (the registry's remotes' own). */
const registryOffers = REMOTE_NAMES.map((remote) => ({
  remote,
  routes: registryRoutes(remote),
  grants: grantsOf({}, remote),
}));
const served = { ...config, routes: composeRoutes(registryOffers).routes };

let tmp: string;
let server: Server;
let base: string;

function listen(routes: PartRoutes): Promise<Server> {
  return listenRoutes(routes);
}

function close(target: Server): Promise<void> {
  target.closeAllConnections();
  return new Promise((resolve) => target.close(() => resolve()));
}

/** Every security header of a page for this configuration, over plain HTTP. */
const PAGE_HEADERS = securityHeaders(config, { page: true, https: false });

function expectPageHeaders(res: Response): void {
  for (const [name, value] of Object.entries(PAGE_HEADERS))
    expect([name, res.headers.get(name)]).toEqual([name, value]);
  expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self' https:\/\/gifts/);
  expect(res.headers.get('strict-transport-security')).toBeNull();
}

/** What a response that is not a page carries: no sniffing, the referrer rule, and no page policy. */
function expectOtherHeaders(res: Response): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('content-security-policy')).toBeNull();
}

/** The built page, with the runtime configuration written into it. */
function expectAppPage(body: string): void {
  expect(body).toContain('<script defer src="/main.1a2b3c4d.js"></script>');
  expect(body).toContain('<div id="root"></div>');
  const inline = /<script type="application\/json" id="gift-box-config">(.*?)<\/script>/.exec(body)?.[1];
  expect(JSON.parse(inline ?? 'null')).toStrictEqual(served);
}

function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}${path}`, init);
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'host-handler-test-'));
  const root = join(tmp, 'dist');
  mkdirSync(join(root, '_app', 'builds'), { recursive: true });
  writeFileSync(join(tmp, 'secret'), SECRET);
  writeFileSync(join(root, 'index.html'), INDEX_HTML);
  writeFileSync(join(root, 'main.1a2b3c4d.js'), MAIN_JS);
  writeFileSync(join(root, '_app', 'builds', 'latest.json'), LATEST);
  // A stale file of the same name in the build must not shadow the runtime configuration.
  writeFileSync(join(root, 'config.json'), '{"stale":true}\n');
  server = await listen(createHostHandler({ root, config }));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await close(server);
  rmSync(tmp, { recursive: true, force: true });
});

describe('GET /config.json', () => {
  it('answers with the runtime configuration as JSON, revalidated on each use', async () => {
    const res = await get('/config.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toStrictEqual(served);
  });

  it('gives a body the browser side parses back to the same configuration', async () => {
    const res = await get('/config.json?v=2');
    expect(parseRuntimeConfig(await res.json())).toStrictEqual(served);
  });

  it('answers HEAD with the length and no body', async () => {
    const res = await get('/config.json', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(`${JSON.stringify(served)}\n`));
    expect(await res.text()).toBe('');
  });
});

describe('pages', () => {
  it.each(['/', '/about', '/game', '/privacy-policy', '/terms'])(
    'answers %s with 200 and the app HTML, revalidated on each use',
    async (path) => {
      const res = await get(path, { headers: NAVIGATE });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      expectAppPage(await res.text());
    },
  );

  // A visitor's own page (rendered with their data where the API answers: data-pages.ts), never stored.
  it.each([`/gifts/${ID}`, `/redeem/${ID}`])(
    'answers %s with 200 and the app HTML, stored by no cache',
    async (path) => {
      const res = await get(path, { headers: NAVIGATE });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expectAppPage(await res.text());
    },
  );

  it.each(['/about?x=1', '/about?x=1#top', `/gifts/${ID}?utm_source=mail`, '/?ref=home', '/about/'])(
    'routes %s by its path alone',
    async (path) => {
      const res = await get(path, { headers: NAVIGATE });
      expect(res.status).toBe(200);
      expectAppPage(await res.text());
    },
  );

  it('accepts ids with "-" and "_"', async () => {
    const res = await get('/redeem/abc-DEF_123-456_789-xyzW', { headers: NAVIGATE });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it.each([
    '/nope',
    '/gifts',
    '/gifts/short',
    `/gifts/${ID}A`,
    `/gifts/${ID}/extra`,
    '/redeem/has+plus_chars_24_long_x',
    '/redeem/has%2Fslash_chars_24_long',
    '/index.html',
    '/config',
    '/%E0%A4%A',
  ])('answers %s with 404 and the app HTML, so the app shows the message', async (path) => {
    const res = await get(path, { headers: NAVIGATE });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const body = await res.text();
    expectAppPage(body);
    // The tab says what the app will show, from the first byte: not a route's own title.
    expect(body).toContain('<title>Page not found · Gift Box</title>');
  });

  it('reflects nothing of a hostile path into the HTML', async () => {
    const res = await get('/%3Cscript%3Ealert(1)%3C/script%3E', { headers: NAVIGATE });
    expect(res.status).toBe(404);
    const body = await res.text();
    expectAppPage(body);
    expect(body).not.toContain('alert');
  });

  it('answers a matching If-None-Match on the same page with 304', async () => {
    const first = await get('/about', { headers: NAVIGATE });
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    expect(etag).toEqual(expect.any(String));
    const second = await get('/about', { headers: { ...NAVIGATE, 'If-None-Match': etag as string } });
    expect(second.status).toBe(304);
    // Each page has its own HTML now (its title, its remote's preloads).
    const other = await get('/terms', { headers: { ...NAVIGATE, 'If-None-Match': etag as string } });
    expect(other.status).toBe(200);
    await other.arrayBuffer();
  });

  it('never turns a 404 page into a 304', async () => {
    const first = await get('/about', { headers: NAVIGATE });
    await first.arrayBuffer();
    const res = await get('/nope', { headers: { ...NAVIGATE, 'If-None-Match': first.headers.get('etag') as string } });
    expect(res.status).toBe(404);
    expectAppPage(await res.text());
  });

  it('answers HEAD on a page with the status and no body', async () => {
    const ok = await get('/game', { method: 'HEAD', headers: NAVIGATE });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('');
    const missing = await get('/gifts/short', { method: 'HEAD', headers: NAVIGATE });
    expect(missing.status).toBe(404);
  });

  it.each([
    ['/', 200],
    [`/redeem/${ID}`, 200],
    ['/nope', 404],
    ['/gifts/short', 404],
  ])('sends %s (%i) with the security headers of a page', async (path, status) => {
    const res = await get(path, { headers: NAVIGATE });
    expect(res.status).toBe(status);
    expectPageHeaders(res);
    await res.arrayBuffer();
  });

  it('sends the security headers with a 304 and a HEAD too', async () => {
    const first = await get('/game', { headers: NAVIGATE });
    await first.arrayBuffer();
    const revalidated = await get('/game', {
      headers: { ...NAVIGATE, 'If-None-Match': first.headers.get('etag') ?? '' },
    });
    expect(revalidated.status).toBe(304);
    expectPageHeaders(revalidated);
    const head = await get('/game', { method: 'HEAD', headers: NAVIGATE });
    expectPageHeaders(head);
    await head.arrayBuffer();
  });

  it("tells the browser to report the policy's violations to the API", async () => {
    const res = await get('/about', { headers: NAVIGATE });
    await res.arrayBuffer();
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/; report-uri https:\/\/api\.example\.com\/api\/telemetry\/csp; report-to csp$/);
    expect(res.headers.get('reporting-endpoints')).toBe('csp="https://api.example.com/api/telemetry/csp"');
  });
});

describe('security headers of what is not a page', () => {
  it.each([
    ['/config.json', '*/*', 200],
    ['/robots.txt', '*/*', 200],
    ['/main.1a2b3c4d.js', '*/*', 200],
    ['/_app/builds/latest.json', '*/*', 200],
    ['/missing.1a2b3c4d.js', '*/*', 404],
  ])('sends %s without sniffing and without a page policy', async (path, accept, status) => {
    const res = await get(path, { headers: { Accept: accept } });
    expect(res.status).toBe(status);
    expectOtherHeaders(res);
    await res.arrayBuffer();
  });

  it('sends a 405 without sniffing', async () => {
    const res = await get('/', { method: 'POST', headers: NAVIGATE });
    expect(res.status).toBe(405);
    expectOtherHeaders(res);
    await res.arrayBuffer();
  });
});

describe('over HTTPS', () => {
  it('adds HSTS to pages and to everything else', async () => {
    const https = await listen(createHostHandler({ root: join(tmp, 'dist'), config, isHttps: () => true }));
    const origin = `http://127.0.0.1:${(https.address() as AddressInfo).port}`;
    try {
      for (const path of ['/', '/nope', '/config.json', '/main.1a2b3c4d.js']) {
        const res = await fetch(`${origin}${path}`, { headers: NAVIGATE });
        expect([path, res.headers.get('strict-transport-security')]).toEqual([path, 'max-age=31536000']);
        await res.arrayBuffer();
      }
    } finally {
      await close(https);
    }
  });
});

// curl, fetch() and load-balancer health checks send `Accept: */*` or no Accept at all; a page
// the route table knows must not become a 404 for them.
describe('known pages requested without text/html', () => {
  it.each([
    ['/', '*/*'],
    ['/', ''],
    ['/about', '*/*'],
    [`/redeem/${ID}`, '*/*'],
  ])('answers %s with 200 and the app HTML for Accept %p', async (path, accept) => {
    const res = await get(path, { headers: { Accept: accept } });
    expect(res.status).toBe(200);
    expectAppPage(await res.text());
  });
});

describe('built files', () => {
  it('serves a content-hashed asset for a year', async () => {
    const res = await get('/main.1a2b3c4d.js', { headers: { Accept: '*/*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(await res.text()).toBe(MAIN_JS);
  });

  it('serves the latest-build file revalidated on each use, whatever the timestamp query', async () => {
    const res = await get('/_app/builds/latest.json?t=1700000000001');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(LATEST);
  });

  it.each([
    ['*/*', '/missing.1a2b3c4d.js'],
    ['*/*', '/_app/builds/meta/unknown.json'],
    ['application/json', '/payload/about.json'],
  ])('answers a missing file requested with Accept %s (%s) with a plain-text 404', async (accept, path) => {
    const res = await get(path, { headers: { Accept: accept } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const body = await res.text();
    expect(body).not.toContain('<html');
  });

  it('answers a missing file requested without an Accept header with a plain-text 404', async () => {
    const res = await get('/missing.js', { headers: { Accept: '' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    await res.arrayBuffer();
  });

  it.each(['/..%2fsecret', '/%2e%2e%2fsecret', '/_app/..%2f..%2fsecret', '/..%5csecret'])(
    'serves nothing outside the build for %s',
    async (path) => {
      for (const accept of ['*/*', NAVIGATE.Accept]) {
        const res = await get(path, { headers: { Accept: accept } });
        expect([400, 404]).toContain(res.status);
        expect(await res.text()).not.toContain(SECRET);
      }
    },
  );
});

describe('methods', () => {
  it.each([
    ['POST', '/'],
    ['POST', '/config.json'],
    ['PUT', '/about'],
    ['DELETE', '/main.1a2b3c4d.js'],
  ])('answers %s %s with 405 and an Allow header', async (method, path) => {
    const res = await get(path, { method, headers: NAVIGATE });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    await res.arrayBuffer();
  });
});

describe('a host that has not been built', () => {
  it('answers a page with a plain-text 503 that says how to build it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'host-handler-empty-'));
    const unbuilt = await listen(createHostHandler({ root: empty, config }));
    try {
      const res = await fetch(`http://127.0.0.1:${(unbuilt.address() as AddressInfo).port}/about`, {
        headers: NAVIGATE,
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expectPageHeaders(res);
      expect(await res.text()).toMatch(/npm run build -w host/);
    } finally {
      await close(unbuilt);
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

// As main.ts serves it: shared's serve answers /healthz before the page routes.
describe('GET /healthz', () => {
  const opened: PartServer[] = [];

  async function serveHost(dir: string): Promise<string> {
    const serving = await listenPart('host', 0, createHostHandler({ root: dir, config }), {
      buildFile: join(dir, HOST_BUILD_FILE),
      listenHost: '127.0.0.1',
    });
    opened.push(serving);
    return `http://127.0.0.1:${(serving.server.address() as AddressInfo).port}`;
  }

  beforeAll(() => {
    // Their listening and request lines are not what these tests read.
    setServerLog(createLogger('host', 'silent'));
  });

  afterAll(async () => {
    await Promise.all(opened.map((serving) => serving.shutdown()));
  });

  it('reports the build in /_app/builds/latest.json, never the page, even to a browser', async () => {
    const origin = await serveHost(join(tmp, 'dist'));
    const res = await fetch(`${origin}/healthz`, { headers: NAVIGATE });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toStrictEqual({ status: 'ok', build: 'c35f29a5-a23f-4db1-8c22-216bebc6615a' });
  });

  it('answers 503 for a host that has not been built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'host-health-empty-'));
    try {
      const res = await fetch(`${await serveHost(empty)}/healthz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toStrictEqual({ status: 'unavailable' });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
