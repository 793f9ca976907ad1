/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, setServerLog } from 'server/log';
import { createMetricsRegistry } from 'server/metrics';
import { listenPart, type PartServer } from 'server/part-server';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { createHostHandler, HOST_BUILD_FILE } from './host-handler';
import { createHostMetrics } from './host-metrics';
import { createRemoteSources, type RemoteSources } from './remote-sources';

/** A gift id of the real format: it must never reach a label. */
const GIFT_ID = 'q3Vt8pLx0ZbN4mWc7RkE2sYa';
const INDEX_HTML =
  '<!doctype html><html><head><title>Gift Box</title><script defer src="/main.1a2b3c4d.js"></script></head>' +
  '<body><div id="root"></div></body></html>\n';
const NAVIGATE = { Accept: 'text/html' };

/** The content remote's files, as its deploy publishes them (prerendered pages included). */
function contentFiles(): Map<string, string> {
  const files = new Map<string, string>([
    ['/builds/latest.json', JSON.stringify({ id: 'c1', timestamp: 1 })],
    [
      '/mf-manifest.json',
      JSON.stringify({
        metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' },
        exposes: [{ name: 'AboutPage', assets: { js: { sync: ['__federation_expose_AboutPage.c1.js'] } } }],
      }),
    ],
    ['/prerender/pages.css', '.p-content{margin:0}'],
  ]);
  for (const module of ['HomePage', 'AboutPage', 'PrivacyPolicyPage', 'TermsPage']) {
    const html = '<article class="p-content"><h1>About us</h1></article>';
    files.set(`/prerender/${module}.json`, JSON.stringify({ buildId: 'c1', html, state: { queries: [] } }));
  }
  return files;
}

const servers: Server[] = [];

/** A remote's server on loopback: its files, or 500 for everything when it has none. */
async function startRemote(files?: Map<string, string>): Promise<string> {
  const server = createServer((req, res) => {
    const body = files?.get((req.url ?? '/').split('?')[0] ?? '/');
    res.statusCode = files === undefined ? 500 : body === undefined ? 404 : 200;
    res.end(body ?? 'no');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let tmp: string;
let sources: RemoteSources;
let serving: PartServer;
let base: string;

beforeAll(async () => {
  // Their listening and request lines are not what these tests read.
  setServerLog(createLogger('host', 'silent'));
  tmp = mkdtempSync(join(tmpdir(), 'host-metrics-test-'));
  const root = join(tmp, 'dist');
  mkdirSync(join(root, '_app', 'builds'), { recursive: true });
  writeFileSync(join(root, 'index.html'), INDEX_HTML);
  writeFileSync(join(root, HOST_BUILD_FILE), '{"id":"h1","timestamp":1}\n');
  const [content, broken] = [await startRemote(contentFiles()), await startRemote()];
  const config = parseRuntimeConfig({
    remotes: {
      content: `${content}/mf-manifest.json`,
      gifts: `${broken}/gifts/mf-manifest.json`,
      redeem: `${broken}/redeem/mf-manifest.json`,
    },
    apiBaseUrl: 'https://api.example.com',
  });
  // As main.ts wires them: one registry for the host, the remotes' failed reads counted in it.
  const registry = createMetricsRegistry('host');
  const metrics = createHostMetrics(registry);
  sources = createRemoteSources({
    remotes: config.remotes,
    log: () => undefined,
    onFailure: (remote) => metrics.remoteRefreshFailed(remote),
  });
  const handler = createHostHandler({ root, config, sources, metrics });
  serving = await listenPart('host', 0, handler, {
    buildFile: join(root, HOST_BUILD_FILE),
    listenHost: '127.0.0.1',
    metrics: { registry, metricsPort: 0, metricsHost: '127.0.0.1' },
  });
  base = `http://127.0.0.1:${(serving.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await serving.shutdown();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(tmp, { recursive: true, force: true });
});

async function page(path: string): Promise<number> {
  const res = await fetch(`${base}${path}`, { headers: NAVIGATE });
  await res.arrayBuffer();
  return res.status;
}

/** The metrics listener's exposition, a line each. */
async function scrape(): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${serving.metrics?.port ?? 0}/metrics`);
  expect(res.status).toBe(200);
  return (await res.text()).split('\n');
}

/** The samples of `name`, without the `part` label every one of them carries. */
function samplesOf(lines: string[], name: string): string[] {
  return lines
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => {
      expect(line).toContain('part="host"');
      return line.replace(/,?part="host"/, '');
    });
}

test("the pages by route pattern and status, prerender hits and misses, and the remotes' failed reads", async () => {
  // Before any remote was read, a prerendered route has no markup to send.
  expect(await page('/about')).toBe(200);
  await sources.refresh();
  const prerendered = await fetch(`${base}/about`, { headers: NAVIGATE });
  expect(await prerendered.text()).toContain('<h1>About us</h1>');
  expect(await page('/about?utm_source=mail')).toBe(200);
  // The gifts remote answers 500: its page goes without.
  expect(await page('/game')).toBe(200);
  expect(await page(`/gifts/${GIFT_ID}`)).toBe(200);
  expect(await page('/gifts/not-a-gift-id')).toBe(404);
  expect(await page('/no/such/page')).toBe(404);
  // The public port has no metrics: it is a path like any other, a 404 page.
  const onPublicPort = await fetch(`${base}/metrics`, { headers: NAVIGATE });
  expect(onPublicPort.status).toBe(404);
  expect(onPublicPort.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(await onPublicPort.text()).not.toContain('giftbox_');
  // Each failed read counts, though the log says it once.
  await sources.refresh();

  const lines = await scrape();
  expect(samplesOf(lines, 'giftbox_pages_rendered_total').sort()).toEqual(
    [
      'giftbox_pages_rendered_total{route="/about",status="200"} 3',
      'giftbox_pages_rendered_total{route="/game",status="200"} 1',
      'giftbox_pages_rendered_total{route="/gifts/:giftId",status="200"} 1',
      'giftbox_pages_rendered_total{route="/gifts/:giftId",status="404"} 1',
      'giftbox_pages_rendered_total{route="*",status="404"} 2',
    ].sort(),
  );
  expect(samplesOf(lines, 'giftbox_prerender_hits_total').sort()).toEqual(
    [
      'giftbox_prerender_hits_total{route="/about",outcome="miss"} 1',
      'giftbox_prerender_hits_total{route="/about",outcome="hit"} 2',
      'giftbox_prerender_hits_total{route="/game",outcome="miss"} 1',
    ].sort(),
  );
  expect(samplesOf(lines, 'giftbox_remote_refresh_failures_total').sort()).toEqual(
    [
      'giftbox_remote_refresh_failures_total{remote="gifts"} 2',
      'giftbox_remote_refresh_failures_total{remote="redeem"} 2',
    ].sort(),
  );
  // No path, id or query string in any label.
  const text = lines.join('\n');
  for (const secret of [GIFT_ID, 'not-a-gift-id', '/no/such', 'utm_source']) expect(text).not.toContain(secret);
});

test('a revalidated page counts as what the visitor got: a 304', async () => {
  const first = await fetch(`${base}/terms`, { headers: NAVIGATE });
  await first.arrayBuffer();
  const again = await fetch(`${base}/terms`, {
    headers: { ...NAVIGATE, 'If-None-Match': first.headers.get('etag') ?? '' },
  });
  expect(again.status).toBe(304);
  const pages = samplesOf(await scrape(), 'giftbox_pages_rendered_total');
  expect(pages).toContain('giftbox_pages_rendered_total{route="/terms",status="200"} 1');
  expect(pages).toContain('giftbox_pages_rendered_total{route="/terms",status="304"} 1');
});

test('a page the cache holds is answered without being rendered again', async () => {
  for (let n = 0; n < 3; n += 1) expect(await page('/privacy-policy')).toBe(200);
  const lines = await scrape();
  expect(samplesOf(lines, 'giftbox_pages_rendered_total')).toContain(
    'giftbox_pages_rendered_total{route="/privacy-policy",status="200"} 3',
  );
  expect(samplesOf(lines, 'giftbox_page_cache_misses_total')).toContain(
    'giftbox_page_cache_misses_total{route="/privacy-policy"} 1',
  );
});
