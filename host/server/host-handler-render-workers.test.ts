/** @jest-environment node */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GIFT_ID, aGiftView } from 'shared/testing/api-fixtures';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { listenRoutes } from 'server/testing/listen-routes';
import { createDataPages } from './data-pages';
import { createHostHandler } from './host-handler';
import { loadRenderer, RenderPools } from './remote-renderers';
import type { RemoteSnapshot } from './remote-snapshot';

const GIFT = aGiftView();
const SECRET = 'host-secret-4f9c2e';
const INDEX_HTML =
  '<!doctype html><html><head><title>Gift Box</title><script defer src="/main.1a2b3c4d.js"></script></head>' +
  '<body><div id="root"></div></body></html>\n';
const NAVIGATE = { Accept: 'text/html' };

const servers: Server[] = [];
let socketTarget: TcpServer;
let connections = 0;
let tmp: string;
let base: string;
let pools: RenderPools;

const giftsSnapshot: RemoteSnapshot = {
  buildId: 'gifts-build-1',
  manifestUrl: 'https://gifts.example.com/mf-manifest.json',
  remoteEntry: 'https://gifts.example.com/remoteEntry.js',
  exposes: new Map(),
  integrity: new Map(),
  prerendered: new Map(),
};

/** A render bundle whose render does `body` first, then renders the gift's name. */
const bundle = (body: string) =>
  `module.exports.render = (request) => { ${body}; return { html: '<h1>' + request.queries[0].data.prize.name + '</h1>', state: {} }; };`;

async function useBundle(code: string): Promise<void> {
  const integrity = `sha384-${createHash('sha384').update(code).digest('base64')}`;
  giftsSnapshot.renderer = { render: await loadRenderer(pools.pool('gifts'), code, integrity), css: '' };
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const giftPage = async () => (await fetch(`${base}/gifts/${GIFT_ID}`, { headers: NAVIGATE })).text();

beforeAll(async () => {
  process.env.GIFT_BOX_TEST_SECRET = SECRET;
  tmp = mkdtempSync(join(tmpdir(), 'host-render-workers-test-'));
  writeFileSync(join(tmp, 'index.html'), INDEX_HTML);
  socketTarget = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => socketTarget.listen(0, '127.0.0.1', resolve));
  const apiUrl = await listen((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(GIFT));
  });
  pools = new RenderPools({ size: 2, memoryMb: 64, timeoutMs: 2_000 });
  const handler = createHostHandler({
    root: tmp,
    config: parseRuntimeConfig({
      remotes: { ...everyRemote(), gifts: giftsSnapshot.manifestUrl },
      apiBaseUrl: 'https://api.example.com',
      remoteTimeoutMs: 4000,
    }),
    sources: { snapshot: (remote) => (remote === 'gifts' ? giftsSnapshot : undefined) },
    dataPages: createDataPages({ apiUrl, timeoutMs: 2_000, log: () => undefined }),
  });
  const server = await listenRoutes(handler);
  servers.push(server);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  delete process.env.GIFT_BOX_TEST_SECRET;
  await pools.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await new Promise((resolve) => socketTarget.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
});

describe("a remote's render bundle, run in a worker process", () => {
  it('renders the gift page with the visitor’s data', async () => {
    await useBundle(bundle(''));
    expect(await giftPage()).toContain('<h1>Cinema ticket</h1>');
  });

  const escapes: Array<[string, string]> = [
    [
      "reaches for the host's process through a Node class",
      `const p = URL.constructor('return process')(); request.queries[0].data.prize.name = p.env.GIFT_BOX_TEST_SECRET`,
    ],
    [
      "reaches for the host's process through its own realm",
      `const p = this.constructor.constructor('return process')(); request.queries[0].data.prize.name = p.env.GIFT_BOX_TEST_SECRET`,
    ],
    ['reads the environment', `request.queries[0].data.prize.name = process.env.GIFT_BOX_TEST_SECRET`],
    ['writes a file', `URL.constructor('return process')().mainModule.require('fs').writeFileSync(FILE, 'x')`],
    ['opens a socket', `URL.constructor('return process')().mainModule.require('net').connect(PORT, '127.0.0.1')`],
    ['fetches', `fetch('http://127.0.0.1:PORT/')`],
    ['allocates 2 GB', `new Uint8Array(2 * 1024 ** 3).fill(1)`],
  ];

  it.each(escapes)('gets nothing when it %s: the page is rendered in the browser', async (_what, body) => {
    const file = join(tmp, 'written-by-a-bundle');
    const port = String((socketTarget.address() as AddressInfo).port);
    await useBundle(bundle(body.replace('FILE', JSON.stringify(file)).replace('PORT', port)));
    const html = await giftPage();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('Cinema ticket');
    expect(html).not.toContain(SECRET);
    expect(existsSync(file)).toBe(false);
    expect(connections).toBe(0);
  });

  it('holds up no other page while a render never ends, and the next render is served', async () => {
    await useBundle(bundle('for (;;) {}'));
    let stuckAnswered = false;
    const stuck = giftPage().then((html) => {
      stuckAnswered = true;
      return html;
    });
    const other = await fetch(`${base}/about`, { headers: NAVIGATE });
    expect(other.status).toBe(200);
    expect(stuckAnswered).toBe(false);
    const html = await stuck;
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('Cinema ticket');
    await useBundle(bundle(''));
    expect(await giftPage()).toContain('<h1>Cinema ticket</h1>');
  });

  it('is served by a new worker after its worker ran out of memory', async () => {
    await useBundle(bundle('const kept = []; for (;;) kept.push(new Array(1e6).fill(1))'));
    expect(await giftPage()).toContain('<div id="root"></div>');
    await useBundle(bundle(''));
    expect(await giftPage()).toContain('<h1>Cinema ticket</h1>');
  });
});
