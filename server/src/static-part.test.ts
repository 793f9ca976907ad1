/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Registry } from 'prom-client';
import { safeRelativePath, sendFile } from './file-reply';
import { createLogger } from './log';
import { listenPart, type PartRoutes } from './part-server';
import { staticFiles } from './static-part';

const HOST_ORIGIN = 'http://host.example:3000';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SECRET = 'TOP-SECRET-OUTSIDE-THE-ROOT';

const INDEX_HTML = '<!doctype html><html><head><title>remote</title></head><body></body></html>\n';
const BIG_JS = 'console.log("a content-hashed chunk");\n'.repeat(100);
const SMALL_JS = 'window.remote = 1;\n';
const CSS = 'body { color: rebeccapurple; }\n';
const MANIFEST = `${JSON.stringify({ id: 'content', name: 'content' })}\n`;
const LATEST = `${JSON.stringify({ id: 'c35f29a5-a23f-4db1-8c22-216bebc6615a', timestamp: 1 })}\n`;

let tmp: string;
let root: string;
let server: Server;
let base: string;

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A request with exactly the path and headers given: no URL normalisation (fetch would resolve
 * `..` and `%2e%2e` before sending), no automatic decompression, no keep-alive.
 */
function raw(path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const log = createLogger('test', 'silent');

async function listen(routes: PartRoutes): Promise<Server> {
  const buildFile = join(root, 'builds', 'latest.json');
  return (await listenPart('test', 0, routes, { buildFile, listenHost: '127.0.0.1', log })).server;
}

function close(target: Server): Promise<void> {
  target.closeAllConnections();
  return new Promise((resolve) => target.close(() => resolve()));
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'static-server-test-'));
  root = join(tmp, 'dist');
  mkdirSync(join(root, 'builds', 'meta'), { recursive: true });
  writeFileSync(join(tmp, 'package.json'), `{"name":"${SECRET}"}`);
  writeFileSync(join(tmp, 'secret'), SECRET);
  writeFileSync(join(root, 'index.html'), INDEX_HTML);
  writeFileSync(join(root, 'main.1a2b3c4d.js'), BIG_JS);
  writeFileSync(join(root, 'remoteEntry.js'), SMALL_JS);
  writeFileSync(join(root, 'styles.0123abcd.css'), CSS);
  writeFileSync(join(root, 'mf-manifest.json'), MANIFEST);
  writeFileSync(join(root, 'builds', 'latest.json'), LATEST);
  writeFileSync(join(root, 'logo.png'), Buffer.alloc(4096, 7));
  server = await listen(staticFiles({ root, corsOrigins: [HOST_ORIGIN] }));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await close(server);
  rmSync(tmp, { recursive: true, force: true });
});

describe('safeRelativePath', () => {
  it.each([
    ['/', ''],
    ['/index.html', 'index.html'],
    ['/builds/latest.json?t=1700000000000', 'builds/latest.json'],
    ['/main.js#fragment', 'main.js'],
    ['/a%20b.txt', 'a b.txt'],
    ['//double//slash.js', 'double/slash.js'],
    [undefined, ''],
  ])('maps %p to %p', (url, expected) => {
    expect(safeRelativePath(url)).toBe(expected);
  });

  it.each(['/%00', '/index.html%00.js', '/%E0%A4%A', '/..%5csecret', '/a/..%5c..%5csecret'])('rejects %p', (url) => {
    expect(safeRelativePath(url)).toBeUndefined();
  });

  it.each(['/../secret', '/%2e%2e/secret', '/a/../../secret', '/..%2f..%2fsecret'])(
    'never lets %p climb out of the root',
    (url) => {
      const result = safeRelativePath(url);
      if (result !== undefined) {
        expect(result.split('/')).not.toContain('..');
        expect(result.startsWith('/')).toBe(false);
      }
    },
  );
});

describe('createStaticHandler', () => {
  it.each([
    ['/main.1a2b3c4d.js', 'text/javascript; charset=utf-8', BIG_JS],
    ['/mf-manifest.json', 'application/json; charset=utf-8', MANIFEST],
    ['/styles.0123abcd.css', 'text/css; charset=utf-8', CSS],
    ['/index.html', 'text/html; charset=utf-8', INDEX_HTML],
  ])('serves %s as %s', async (path, type, content) => {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(content);
  });

  it('serves index.html for /', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(INDEX_HTML);
  });

  it('serves a file of an unknown type as application/octet-stream', async () => {
    writeFileSync(join(root, 'blob.bin'), 'bytes');
    const res = await raw('/blob.bin');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });

  it.each([
    ['/main.1a2b3c4d.js', IMMUTABLE],
    ['/styles.0123abcd.css', IMMUTABLE],
    ['/remoteEntry.js', 'no-cache'],
    ['/mf-manifest.json', 'no-cache'],
    ['/index.html', 'no-cache'],
    ['/', 'no-cache'],
    ['/builds/latest.json', 'no-cache'],
  ])('sends %s with Cache-Control %p', async (path, policy) => {
    const res = await raw(path);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(policy);
  });

  it('ignores the query string, as the version check polls with a timestamp', async () => {
    const res = await raw('/builds/latest.json?t=1700000000000');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body.toString()).toBe(LATEST);
  });

  describe('conditional requests', () => {
    it('answers a matching If-None-Match with an empty 304', async () => {
      const first = await raw('/remoteEntry.js');
      const etag = first.headers.etag;
      expect(etag).toEqual(expect.any(String));
      expect(first.headers['last-modified']).toEqual(expect.any(String));
      const second = await raw('/remoteEntry.js', { headers: { 'If-None-Match': etag as string } });
      expect(second.status).toBe(304);
      expect(second.body).toHaveLength(0);
      expect(second.headers.etag).toBe(etag);
      expect(second.headers['cache-control']).toBe('no-cache');
    });

    it('answers a stale If-None-Match with the file', async () => {
      const res = await raw('/remoteEntry.js', { headers: { 'If-None-Match': 'W/"0-0"' } });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(SMALL_JS);
    });

    it('gives different files different ETags', async () => {
      const [a, b] = await Promise.all([raw('/remoteEntry.js'), raw('/mf-manifest.json')]);
      expect(a.headers.etag).not.toBe(b.headers.etag);
    });
  });

  describe('compression', () => {
    it('says a compressible file varies with Accept-Encoding when served on its own, without CORS (the host)', async () => {
      const bare = await listen((app) => {
        app.get('/', async (request, reply) => {
          if (!(await sendFile(request, reply, root, 'main.1a2b3c4d.js'))) await reply.send();
        });
      });
      try {
        const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
        for (const encoding of ['gzip', 'identity']) {
          const res = await fetch(url, { headers: { 'Accept-Encoding': encoding } });
          expect(res.headers.get('vary')).toBe('Accept-Encoding');
          await res.arrayBuffer();
        }
      } finally {
        await close(bare);
      }
    });

    it('gzips a text file of at least 1 KiB when the client accepts gzip', async () => {
      expect(Buffer.byteLength(BIG_JS)).toBeGreaterThanOrEqual(1024);
      const res = await raw('/main.1a2b3c4d.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(res.body.length).toBeLessThan(Buffer.byteLength(BIG_JS));
      expect(gunzipSync(res.body).toString()).toBe(BIG_JS);
    });

    it('sends identity with Content-Length when the client does not accept gzip', async () => {
      const res = await raw('/main.1a2b3c4d.js');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(BIG_JS)));
      expect(res.body.toString()).toBe(BIG_JS);
    });

    it('sends a file under 1 KiB uncompressed even when gzip is accepted', async () => {
      const res = await raw('/remoteEntry.js', { headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(SMALL_JS)));
      expect(res.body.toString()).toBe(SMALL_JS);
    });

    it('does not gzip an already compressed image', async () => {
      const res = await raw('/logo.png', { headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe('4096');
      expect(res.body.equals(Buffer.alloc(4096, 7))).toBe(true);
    });

    it('gives fetch a body that decodes to the file', async () => {
      const res = await fetch(`${base}/main.1a2b3c4d.js`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(await res.text()).toBe(BIG_JS);
    });
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await raw('/main.1a2b3c4d.js', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(BIG_JS)));
    expect(res.body).toHaveLength(0);
  });

  describe('missing files', () => {
    it.each(['/missing.js', '/builds/meta/unknown.json', '/builds', '/builds/'])(
      'answers %s with a plain-text 404',
      async (path) => {
        const res = await raw(path);
        expect(res.status).toBe(404);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.body.toString()).toBe('Not found');
      },
    );

    it.each([
      '/.deploy.lock',
      '/.3f2a9c.deploy-tmp',
      '/builds/b1/.77aa.deploy-tmp',
      '/.hidden/main.js',
      '/%2Edeploy.lock',
    ])(
      'answers %s with a 404 although the file is there: a deploy’s lock and half-written files are never served',
      async (path) => {
        const file = join(root, decodeURIComponent(path));
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, 'half a remoteEntry.js');
        const res = await raw(path);
        expect(res.status).toBe(404);
        expect(res.body.toString()).toBe('Not found');
      },
    );

    it('never falls back to index.html, even for a browser asking for HTML', async () => {
      const res = await fetch(`${base}/some/page`, { headers: { Accept: 'text/html' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).not.toContain('<html');
    });
  });

  describe('paths that try to leave the root', () => {
    it.each([
      '/../package.json',
      '/../../package.json',
      '/../secret',
      '/%2e%2e/secret',
      '/%2E%2E/secret',
      '/%2e%2e%2fsecret',
      '/..%2fsecret',
      '/..%5csecret',
      '/builds/../../secret',
      '/builds/..%2f..%2fsecret',
      '/%2e%2e/%2e%2e/package.json',
    ])('refuses %s without serving anything outside the root', async (path) => {
      const res = await raw(path);
      expect([400, 404]).toContain(res.status);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body.toString()).not.toContain(SECRET);
    });

    it.each(['/%00', '/index.html%00', '/index.html%00.js'])('answers the encoded NUL in %s with 400', async (path) => {
      const res = await raw(path);
      expect(res.status).toBe(400);
      expect(res.body.toString()).not.toContain('<html');
    });

    it('answers malformed percent-encoding with 400', async () => {
      const res = await raw('/%E0%A4%A');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    });
  });

  describe('CORS', () => {
    it('echoes an allowed Origin', async () => {
      const res = await raw('/remoteEntry.js', { headers: { Origin: HOST_ORIGIN } });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(HOST_ORIGIN);
      expect(res.headers.vary).toMatch(/\bOrigin\b/);
    });

    it('echoes an allowed Origin on a 404 too, so the host can read the status', async () => {
      const res = await raw('/missing.js', { headers: { Origin: HOST_ORIGIN } });
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe(HOST_ORIGIN);
    });

    it.each(['http://evil.example', 'http://host.example:3001', 'null'])(
      'grants nothing to the foreign Origin %s',
      async (origin) => {
        const res = await raw('/remoteEntry.js', { headers: { Origin: origin } });
        expect(res.status).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.headers.vary).toMatch(/\bOrigin\b/);
      },
    );

    it('grants nothing without an Origin', async () => {
      const res = await raw('/remoteEntry.js');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('answers a preflight OPTIONS with 204 and the allowed methods', async () => {
      const res = await raw('/remoteEntry.js', {
        method: 'OPTIONS',
        headers: { Origin: HOST_ORIGIN, 'Access-Control-Request-Method': 'GET' },
      });
      expect(res.status).toBe(204);
      expect(res.body).toHaveLength(0);
      expect(res.headers['access-control-allow-origin']).toBe(HOST_ORIGIN);
      expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    });

    it('allows every origin when the list holds "*"', async () => {
      const open = await listen(staticFiles({ root, corsOrigins: ['*'] }));
      try {
        const res = await fetch(`http://127.0.0.1:${(open.address() as AddressInfo).port}/remoteEntry.js`, {
          headers: { Origin: 'http://anyone.example' },
        });
        expect(res.headers.get('access-control-allow-origin')).toBe('http://anyone.example');
        await res.arrayBuffer();
      } finally {
        await close(open);
      }
    });

    it('allows no origin when none are listed', async () => {
      const closed = await listen(staticFiles({ root }));
      try {
        const res = await fetch(`http://127.0.0.1:${(closed.address() as AddressInfo).port}/remoteEntry.js`, {
          headers: { Origin: HOST_ORIGIN },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
        await res.arrayBuffer();
      } finally {
        await close(closed);
      }
    });
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405 and an Allow header', async (method) => {
    const res = await raw('/remoteEntry.js', { method });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  describe('deploys', () => {
    it('serves a file written into the folder after the server started', async () => {
      const chunk = 'export const deployed = true;\n';
      writeFileSync(join(root, '__federation_expose_NewPage.6e3f5207f5ca80f0.js'), chunk);
      const res = await raw('/__federation_expose_NewPage.6e3f5207f5ca80f0.js');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.body.toString()).toBe(chunk);
    });

    it('serves the new content and a new ETag when a file is replaced', async () => {
      const path = join(root, 'builds', 'deploy-latest.json');
      writeFileSync(path, '{"id":"old"}\n');
      const before = await raw('/builds/deploy-latest.json');
      writeFileSync(path, '{"id":"a-newer-build"}\n');
      const after = await raw('/builds/deploy-latest.json', {
        headers: { 'If-None-Match': String(before.headers.etag) },
      });
      expect(after.status).toBe(200);
      expect(after.body.toString()).toBe('{"id":"a-newer-build"}\n');
      expect(after.headers.etag).not.toBe(before.headers.etag);
    });
  });
});

describe('countStaticRequests', () => {
  it('counts each answer by its status: files, revalidations, misses, refusals and failures', async () => {
    const registry = new Registry();
    registry.setDefaultLabels({ part: 'gifts' });
    // A route of the same scope that fails: the part's server answers it with a 500, counted too.
    const counting = await listen(async (app, onBadUrl) => {
      app.get('/fails', async () => {
        throw new Error('the route failed');
      });
      await staticFiles({ root, corsOrigins: [HOST_ORIGIN], registry })(app, onBadUrl);
    });
    const url = (path: string) => `http://127.0.0.1:${(counting.address() as AddressInfo).port}${path}`;
    try {
      const first = await fetch(url('/remoteEntry.js'));
      await first.arrayBuffer();
      const again = await fetch(url('/remoteEntry.js'), {
        headers: { 'If-None-Match': first.headers.get('etag') ?? '' },
      });
      expect(again.status).toBe(304);
      for (const [path, method] of [
        ['/nope.js', 'GET'],
        ['/metrics', 'GET'],
        ['/remoteEntry.js', 'POST'],
        ['/fails', 'GET'],
      ] as const) {
        await (await fetch(url(path), { method })).arrayBuffer();
      }
      const counts = (await registry.getSingleMetric('giftbox_static_requests_total')?.get())?.values.map(
        ({ labels, value }) => [labels.status, value],
      );
      expect(Object.fromEntries(counts ?? [])).toStrictEqual({ '200': 1, '304': 1, '404': 2, '405': 1, '500': 1 });
      // The part comes from the registry: every series of the server carries it.
      expect(await registry.metrics()).toContain('giftbox_static_requests_total{status="404",part="gifts"} 2');
    } finally {
      await close(counting);
    }
  });
});
