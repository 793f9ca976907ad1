/** @jest-environment node */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GIFT_ID, REDEEM_ID, aGiftView } from 'shared/testing/api-fixtures';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { listenRoutes } from 'server/testing/listen-routes';
import { createDataPages } from './data-pages';
import { createHostHandler } from './host-handler';
import type { RenderRequest } from 'shared/render-contract';
import type { RemoteSnapshot } from './remote-snapshot';

const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const GIFT = aGiftView();
const INDEX_HTML =
  '<!doctype html><html><head><title>Gift Box</title><script defer src="/main.1a2b3c4d.js"></script></head>' +
  '<body><div id="root"></div></body></html>\n';
const NAVIGATE = { Accept: 'text/html' };

/**
 * The API on loopback: the gift, a 404 for any other, or nothing at all while `hang` is set; the
 * gifts remote's render bundle throws while `brokenRender` is set.
 */
const api = { hang: false, down: false, brokenRender: false, requests: 0 };
/** How the host's server said it answered each data page (`onOutcome`, counted in host-metrics.ts). */
const outcomes: string[] = [];
const servers: Server[] = [];
let tmp: string;
let base: string;
let apiUrl: string;

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/** The gifts remote's render bundle, as the host's server has it once checked: the gift's name and its button. */
async function render({ queries }: RenderRequest) {
  await Promise.resolve();
  if (api.brokenRender) throw new Error('the render bundle broke');
  const gift = queries[0]?.data as typeof GIFT;
  return {
    html: `<article class="p-gift"><h1>${gift.prize.name}</h1><button type="button" onclick="steal()">Redeem</button><script>steal()</script></article>`,
    state: { mutations: [], queries: [{ queryHash: JSON.stringify(queries[0]?.queryKey), state: { data: gift } }] },
  };
}

const giftsSnapshot = {
  buildId: 'gifts-build-1',
  manifestUrl: 'https://gifts.example.com/mf-manifest.json',
  remoteEntry: 'https://gifts.example.com/remoteEntry.js',
  exposes: new Map(),
  integrity: new Map(),
  prerendered: new Map(),
  renderer: { render, css: '.p-gift{color:red}' },
} satisfies RemoteSnapshot;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'host-data-pages-test-'));
  writeFileSync(join(tmp, 'index.html'), INDEX_HTML);
  apiUrl = await listen((req, res) => {
    api.requests += 1;
    if (api.hang) return;
    if (api.down) {
      res.writeHead(503).end();
      return;
    }
    const found = req.url === `/api/gifts/${GIFT_ID}`;
    res.writeHead(found ? 200 : 404, {
      'Content-Type': 'application/json',
      'Set-Cookie': 'gb_visitor=v1; Path=/; HttpOnly',
    });
    res.end(JSON.stringify(found ? GIFT : { statusCode: 404, message: 'This gift does not exist.' }));
  });
  const config = parseRuntimeConfig({
    remotes: { ...everyRemote(), gifts: giftsSnapshot.manifestUrl },
    apiBaseUrl: 'https://api.example.com',
    remoteTimeoutMs: 4000,
  });
  const handler = createHostHandler({
    root: tmp,
    config,
    sources: { snapshot: (remote) => (remote === 'gifts' ? giftsSnapshot : undefined) },
    dataPages: createDataPages({
      apiUrl,
      // Long enough for the API on loopback on a busy machine; a hanging API costs its test this long.
      timeoutMs: 2_000,
      log: () => undefined,
      onOutcome: (route, outcome) => outcomes.push(`${route} ${outcome}`),
    }),
  });
  const server = await listenRoutes(handler);
  servers.push(server);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  Object.assign(api, { hang: false, down: false, brokenRender: false });
  outcomes.length = 0;
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(tmp, { recursive: true, force: true });
});

describe('a gift page from the host server', () => {
  it("holds the gift, rendered by its remote with the visitor's data, sanitised, never stored", async () => {
    const res = await fetch(`${base}/gifts/${GIFT_ID}`, { headers: NAVIGATE });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    // The API's cookie goes to the visitor, beside the cohort a new visitor is given.
    expect(res.headers.getSetCookie().filter((cookie) => !cookie.startsWith('gb_cohort='))).toEqual([
      'gb_visitor=v1; Path=/; HttpOnly',
    ]);
    expect(html).toContain('<div id="root" data-prerendered="GiftPage">');
    expect(html).toContain('<h1>Cinema ticket</h1><button type="button">Redeem</button>');
    expect(html).not.toContain('steal()');
    expect(html).toContain('<style>.p-gift{color:red}</style>');
    expect(html).toMatch(
      /<script type="application\/json" id="gift-box-prerender-state" data-build="gifts-build-1">.*Cinema ticket/,
    );
    expect(outcomes).toEqual(['/gifts/:giftId rendered']);
  });

  it('is a real 404 for a gift the API does not know', async () => {
    const res = await fetch(`${base}/gifts/${UNKNOWN_ID}`, { headers: NAVIGATE });
    const html = await res.text();
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(html).toContain('<title>Page not found');
    expect(html).not.toContain('data-prerendered');
    expect(outcomes).toEqual(['/gifts/:giftId not-found']);
  });

  it("is today's page, rendered in the browser, when the API fails or is slower than the bound", async () => {
    for (const state of [{ down: true }, { hang: true }]) {
      Object.assign(api, state);
      const res = await fetch(`${base}/gifts/${GIFT_ID}`, { headers: NAVIGATE });
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain('Cinema ticket');
    }
    expect(outcomes).toEqual(['/gifts/:giftId api-unavailable', '/gifts/:giftId api-unavailable']);
  });

  it("is today's page, and said so, when the remote's render bundle throws or the remote has none", async () => {
    api.brokenRender = true;
    const broken = await fetch(`${base}/gifts/${GIFT_ID}`, { headers: NAVIGATE });
    expect(broken.status).toBe(200);
    expect(await broken.text()).toContain('<div id="root"></div>');
    // The redeem remote's build was not read: it has no render bundle.
    const redeem = await fetch(`${base}/redeem/${REDEEM_ID}`, { headers: NAVIGATE });
    expect(redeem.status).toBe(200);
    expect(await redeem.text()).toContain('<div id="root"></div>');
    expect(outcomes).toEqual(['/gifts/:giftId render-failed', '/redeem/:redeemId no-renderer']);
  });
});
