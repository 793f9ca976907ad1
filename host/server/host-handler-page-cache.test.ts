/**
 * @jest-environment node
 *
 * The host's pages, rendered once and reused (page-cache.ts): a page is sent as it was first
 * rendered until the built index.html or a remote's build changes, revalidated by its strong
 * ETag, compressed once, and what is kept stays bounded whatever paths and hostnames ask.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { RemoteName } from 'shared/remotes';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { Registry } from 'prom-client';
import { listenRoutes } from 'server/testing/listen-routes';
import { createHostHandler, type HostHandler, type HostHandlerOptions, MAX_VIEWS } from './host-handler';
import { createHostMetrics, PAGE_CACHE_MISSES_METRIC } from './host-metrics';
import { MAX_PAGES_PER_VIEW } from './page-cache';
import type { RemoteDeployment, RemoteSnapshot } from './remote-snapshot';
import { defaultOrigins, runtimeConfigFromEnv } from './runtime-config-from-env';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
/** Over 1 KiB, so that it is sent compressed to a client that accepts it. */
const INDEX_HTML =
  `<!doctype html><html><head><title>Gift Box</title><!-- ${'build one '.repeat(120)}-->` +
  '<script defer src="/main.1a2b3c4d.js"></script></head><body><div id="root"></div></body></html>\n';
const NAVIGATE = { accept: 'text/html' };

const config = parseRuntimeConfig({
  remotes: { ...everyRemote(), content: 'https://content.example.com/mf-manifest.json' },
  apiBaseUrl: 'https://api.example.com',
});

/** The content remote's build `buildId`, whose About page reads `text`. */
function contentBuild(buildId: string, text: string): RemoteSnapshot {
  const remoteEntry = `https://content.example.com/remoteEntry.${buildId}.js`;
  return {
    buildId,
    manifestUrl: config.remotes.content,
    remoteEntry,
    exposes: new Map([['AboutPage', { scripts: [], sharedScripts: [] }]]),
    integrity: new Map([[remoteEntry, 'sha384-abc']]),
    prerendered: new Map([['AboutPage', { buildId, html: `<article><h1>${text}</h1></article>`, state: {} }]]),
    prerenderCss: '.about{margin:0}',
  };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];
let tmp: string;

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(tmp, { recursive: true, force: true });
});

/** A built host in a folder of its own, served on loopback; `get` asks it with the headers given. */
async function startHost(options: Omit<HostHandlerOptions, 'root'>, built = true) {
  tmp = mkdtempSync(join(tmpdir(), 'host-page-cache-test-'));
  const root = join(tmp, 'dist');
  mkdirSync(root);
  if (built) writeFileSync(join(root, 'index.html'), INDEX_HTML);
  const handler: HostHandler = createHostHandler({ root, ...options });
  const server = await listenRoutes(handler);
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  const get = (path: string, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers: { ...NAVIGATE, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const body = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(bytes) : bytes;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString() });
        });
      });
      req.on('error', reject);
      req.end();
    });
  return { root, handler, get };
}

describe('a page every visitor gets alike', () => {
  it('is sent with a strong ETag, and a matching If-None-Match gets an empty 304', async () => {
    const { get } = await startHost({ config });
    const first = await get('/about');
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    const again = await get('/about');
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    const revalidated = await get('/about', { 'if-none-match': String(first.headers.etag) });
    expect([revalidated.status, revalidated.body]).toEqual([304, '']);
  });

  it('is sent brotli-compressed to a browser that accepts it, revalidated by its own ETag', async () => {
    const { get } = await startHost({ config });
    const plain = await get('/about');
    const compressed = await get('/about', { 'accept-encoding': 'gzip, deflate, br' });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.body).toBe(plain.body);
    expect(compressed.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-br"`);
    const revalidated = await get('/about', {
      'accept-encoding': 'gzip, deflate, br',
      'if-none-match': String(compressed.headers.etag),
    });
    expect(revalidated.status).toBe(304);
  });

  it('is rendered again with a new build of its remote: a new body and ETag, the old ETag gets the page', async () => {
    let content = contentBuild('c1', 'About us');
    const snapshot = (remote: RemoteName) => (remote === 'content' ? content : undefined);
    const { get } = await startHost({ config, sources: { snapshot } });
    const before = await get('/about');
    expect(before.body).toContain('<h1>About us</h1>');
    expect(before.body).toContain('remoteEntry.c1.js');
    content = contentBuild('c2', 'About the new us');
    const after = await get('/about', { 'if-none-match': String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.body).toContain('<h1>About the new us</h1>');
    expect(after.body).toContain('remoteEntry.c2.js');
    expect(after.body).not.toContain('remoteEntry.c1.js');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('is rendered again from a new index.html: a new body and ETag, the old ETag gets the page', async () => {
    const { root, get } = await startHost({ config });
    const before = await get('/');
    writeFileSync(join(root, 'index.html'), INDEX_HTML.replaceAll('build one', 'build two'));
    const after = await get('/', { 'if-none-match': String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.body).toContain('build two');
    expect(after.body).not.toContain('build one');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('is served once the host is built, having said it was not', async () => {
    const { root, get } = await startHost({ config }, false);
    expect((await get('/about')).status).toBe(503);
    writeFileSync(join(root, 'index.html'), INDEX_HTML);
    const built = await get('/about');
    expect(built.status).toBe(200);
    expect(built.body).toContain('build one');
  });

  it('is the same over HTTPS and HTTP, each with its own headers', async () => {
    const { get } = await startHost({ config, isHttps: (req) => req.headers['x-test-https'] === '1' });
    const secure = await get('/about', { 'x-test-https': '1' });
    const plain = await get('/about');
    expect(plain.body).toBe(secure.body);
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it("keeps a private page private: a gift's page tells search engines not to index it, the about page does not", async () => {
    const { get } = await startHost({ config });
    for (let n = 0; n < 2; n += 1) {
      const gift = await get(`/gifts/${ID}`);
      expect([gift.status, gift.headers['x-robots-tag']]).toEqual([200, 'noindex, nofollow']);
      expect(gift.body).toContain('<meta name="robots" content="noindex, nofollow">');
      expect((await get('/about')).body).not.toContain('name="robots"');
    }
  });
});

describe("a path in another spelling than its route's", () => {
  /** 200 spellings of `/privacy-policy`: letter case, slashes, percent-encoding, dot segments. */
  const spellings = Array.from({ length: 200 }, (_, n) => {
    const word = [...'privacy-policy']
      .map((letter, i) => ((n >> i) & 1 ? letter.toUpperCase() : letter))
      .map((letter, i) => (n % 5 === 1 && i === 0 ? `%${letter.charCodeAt(0).toString(16)}` : letter))
      .join('');
    const path = ['/', '//', '/x/../', '/./', '/%2E/'][n % 5] + word;
    return n % 3 === 0 ? `${path}/` : n % 3 === 1 ? `${path}//////` : path;
  });

  it('is sent to the canonical path (or is that path), never rendered or kept again', async () => {
    const registry = new Registry();
    const { handler, get } = await startHost({ config, metrics: createHostMetrics(registry) });
    const canonical = await get('/privacy-policy');
    expect(canonical.status).toBe(200);
    expect(new Set(spellings).size).toBe(200);
    for (const spelling of spellings) {
      const answer = await get(spelling);
      if (answer.status === 200) expect(answer.body).toBe(canonical.body);
      else expect([spelling, answer.status, answer.headers.location]).toEqual([spelling, 308, '/privacy-policy']);
    }
    expect(handler.kept().pages).toBe(1);
    const misses = await registry.getSingleMetric(PAGE_CACHE_MISSES_METRIC)?.get();
    expect(misses?.values.map(({ value }) => value)).toEqual([1]);
  });

  it('is sent there with its query string, a gift keeping its id as written', async () => {
    const { get } = await startHost({ config });
    expect((await get('/About/?from=home&x=%20')).headers.location).toBe('/about?from=home&x=%20');
    const gift = await get('/GIFTS/AbCdEfGhIjKlMnOp0123_-xy/');
    expect([gift.status, gift.headers.location]).toEqual([308, '/gifts/AbCdEfGhIjKlMnOp0123_-xy']);
    expect((await get('/gifts/%41bCdEfGhIjKlMnOp0123_-xy')).headers.location).toBe('/gifts/AbCdEfGhIjKlMnOp0123_-xy');
  });

  it('is never sent off the site', async () => {
    const { get } = await startHost({ config });
    for (const path of ['//evil.com', '//evil.com/about', '/..//evil.com', '/%2F%2Fevil.com', '/%5C%5Cevil.com']) {
      const answer = await get(path);
      expect([path, answer.status, answer.headers.location]).toEqual([path, 404, undefined]);
    }
    expect((await get('//about')).headers.location).toBe('/about');
    expect((await get('//')).headers.location).toBe('/');
  });
});

describe('what is kept', () => {
  it('keeps one page for every gift and one for every unknown path', async () => {
    const { handler, get } = await startHost({ config });
    await get(`/gifts/${ID}`);
    await get(`/gifts/BBBBBBBBBBBBBBBBBBBBBBBB`);
    expect(handler.kept().pages).toBe(1);
    for (let n = 0; n < 20; n += 1) expect((await get(`/nope/${n}`)).status).toBe(404);
    expect(handler.kept().pages).toBe(2);
  });

  it("keeps each hostname's pages with its view: a hostname gets its own, and what is kept stays bounded", async () => {
    // The development default: the configuration follows the page's hostname.
    const { handler, get } = await startHost({ config: runtimeConfigFromEnv({}), followed: defaultOrigins({}) });
    const hostnames = Array.from({ length: MAX_VIEWS * 2 }, (_, n) => `h${n}.test`);
    for (const hostname of hostnames) {
      for (const path of ['/', '/about', `/gifts/${ID}`]) {
        const page = await get(path, { host: `${hostname}:3000` });
        expect(page.body).toContain(`"apiBaseUrl":"http://${hostname}:3004"`);
      }
    }
    expect(handler.kept()).toMatchObject({ views: MAX_VIEWS + 1, pages: MAX_VIEWS * 3 });
  });

  it('keeps a page per combination of the builds its visitors get, within the same bound', async () => {
    const stable = contentBuild('c1', 'About us');
    const canary = contentBuild('c2', 'About the new us');
    const deployment: RemoteDeployment = {
      state: { id: 'c1', timestamp: 1, canary: { id: 'c2', percent: 50, since: 1 } },
      builds: new Map([
        ['c1', stable],
        ['c2', canary],
      ]),
      copies: new Set(['c1']),
    };
    const { handler, get } = await startHost({
      config,
      sources: { snapshot: () => undefined, deployment: (remote) => (remote === 'content' ? deployment : undefined) },
    });
    const texts = new Set<string>();
    for (let cohort = 0; cohort < 40; cohort += 1) {
      const page = await get('/about', { cookie: `gb_cohort=${cohort}` });
      texts.add(/<h1>(.*?)<\/h1>/.exec(page.body)?.[1] ?? '');
    }
    // Both builds were given out, each rendered once.
    expect([...texts].sort()).toEqual(['About the new us', 'About us']);
    expect(handler.kept().pages).toBe(2);
    const spellings = Array.from({ length: MAX_PAGES_PER_VIEW * 2 }, (_, n) =>
      [...'about'].map((letter, i) => ((n >> i) & 1 ? letter.toUpperCase() : letter)).join(''),
    );
    for (const [n, spelling] of spellings.entries()) {
      expect([200, 308]).toContain((await get(`/${spelling}`, { cookie: `gb_cohort=${n}` })).status);
    }
    expect(handler.kept().pages).toBe(2);
  });
});
