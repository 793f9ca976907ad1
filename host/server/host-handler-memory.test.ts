/**
 * @jest-environment node
 *
 * A Host header is the client's to choose: on the development default, where the configuration
 * follows the page's hostname, the host's server keeps a view and a page renderer per hostname,
 * and in each view a page per combination of the remotes' builds (here a canary's and stable).
 * However many hostnames ask, what it keeps stays bounded, and a Host header that names no valid
 * host is refused before anything is kept (bench/src/host-memory.ts measures the memory).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canaryBucket } from 'shared/deployment';
import { listenRoutes } from 'server/testing/listen-routes';
import { createHostHandler, type HostHandler, MAX_VIEWS } from './host-handler';
import { MAX_PAGES_PER_VIEW } from './page-cache';
import type { RemoteDeployment, RemoteSnapshot } from './remote-snapshot';
import { defaultOrigins, runtimeConfigFromEnv } from './runtime-config-from-env';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const INDEX_HTML =
  '<!doctype html><html><head><title>Gift Box</title></head><body><div id="root"></div></body></html>\n';
/** Enough distinct hostnames to fill the views many times over (bench:host-memory measures 10,000). */
const HOSTS = 1_000;
/** Requests in flight at once. */
const CONCURRENCY = 16;

let tmp: string;
let handler: HostHandler;
let server: Server;
let agent: Agent;

interface Answer {
  status: number;
  body: string;
}

/** The gifts remote's build `id` at its default address. */
function giftsBuild(id: string): RemoteSnapshot {
  const remoteEntry = `http://localhost:3001/builds/${id}/remoteEntry.js`;
  return {
    buildId: id,
    manifestUrl: `http://localhost:3001/builds/${id}/mf-manifest.json`,
    remoteEntry,
    exposes: new Map([['GiftPage', { scripts: [], sharedScripts: [] }]]),
    integrity: new Map([[remoteEntry, 'sha384-abc']]),
    prerendered: new Map(),
  };
}

/** The gifts remote with a canary for half its visitors: each page is kept once per build. */
const GIFTS: RemoteDeployment = {
  state: { id: 'g1', timestamp: 1, canary: { id: 'g2', percent: 50, since: 1 } },
  builds: new Map([
    ['g1', giftsBuild('g1')],
    ['g2', giftsBuild('g2')],
  ]),
  copies: new Set(['g1']),
};

/** A page at `host` (fetch cannot set the Host header), for a visitor of cohort `n`. */
function get(host: string, path = `/gifts/${ID}`, cohort = 0): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const headers = { host, accept: 'text/html', cookie: `gb_cohort=${cohort % 10_000}` };
    const req = request({ agent, host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A hostname of `length` characters in labels of at most 50, distinct for each `n`. */
function hostname(n: number, length = 30): string {
  const name = `h${n}-`.padEnd(length - '.test'.length, 'a');
  // Every 51st character a dot: the length stays.
  return `${name.replace(/(.{50})./g, '$1.')}.test`;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'host-memory-test-'));
  mkdirSync(join(tmp, 'dist'), { recursive: true });
  writeFileSync(join(tmp, 'dist', 'index.html'), INDEX_HTML);
  // The development default: no URL set, so the configuration follows the page's hostname.
  handler = createHostHandler({
    root: join(tmp, 'dist'),
    config: runtimeConfigFromEnv({}),
    followed: defaultOrigins({}),
    sources: { snapshot: () => undefined, deployment: (remote) => (remote === 'gifts' ? GIFTS : undefined) },
  });
  server = await listenRoutes(handler);
  agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
});

afterAll(async () => {
  agent.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
});

it(`keeps at most ${MAX_VIEWS} views and page renderers, however many hostnames ask`, async () => {
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < HOSTS) {
        const n = next++;
        const { status } = await get(`${hostname(n)}:3000`, `/gifts/${ID}`, n);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  expect([...statuses]).toEqual([[200, HOSTS]]);
  // The views of the most recent hostnames, and the default view (localhost).
  expect(handler.kept()).toMatchObject({ views: MAX_VIEWS + 1, renders: MAX_VIEWS });
  // A page per build at most in each view: the gifts remote's stable build and its canary.
  expect(handler.kept().pages).toBeLessThanOrEqual((MAX_VIEWS + 1) * 2);
  expect(MAX_PAGES_PER_VIEW).toBeGreaterThanOrEqual(2);

  // The pages are still the hostname's own: the last one asked, and one asked again afresh; a
  // canary's visitor gets its copy and the stable build's at the page's hostname too.
  const canaryCohort = Array.from({ length: 100 }, (_, n) => n).find((n) => canaryBucket(n, 'gifts', 'g2') < 50);
  for (const n of [HOSTS - 1, 0]) {
    const page = await get(`${hostname(n)}:3000`, `/gifts/${ID}`, canaryCohort);
    expect(page.body).toContain(`"apiBaseUrl":"http://${hostname(n)}:3004"`);
    expect(page.body).toContain(`"gifts":"http://${hostname(n)}:3001/builds/g2/mf-manifest.json"`);
    expect(page.body).toContain(`"remoteFallbacks":{"gifts":"http://${hostname(n)}:3001/builds/g1/mf-manifest.json"}`);
  }
  expect(handler.kept()).toMatchObject({ views: MAX_VIEWS + 1, renders: MAX_VIEWS });
}, 60_000);

it('keeps the views in use: a hostname asked again is kept over those asked once', async () => {
  const busy = hostname(-1);
  const others = (from: number, count: number) =>
    Promise.all(Array.from({ length: count }, (_, n) => get(`${hostname(HOSTS + from + n)}:3000`)));
  await get(`${busy}:3000`);
  await others(0, MAX_VIEWS - 4);
  // Asked again, it is the most recently used: as many new hostnames again as there is room for
  // leave it kept, though more hostnames came after its first request than the views hold.
  await get(`${busy}:3000`);
  await others(MAX_VIEWS, MAX_VIEWS - 4);
  expect(handler.kept().hostnames).toContain(busy);
  const before = handler.kept();
  await get(`${busy}:3000`);
  // Served from its view: nothing new was made, nothing dropped.
  expect(handler.kept().renders).toBe(before.renders);
  expect(handler.kept().hostnames.at(-1)).toBe(busy);
});

it('serves a hostname of 253 characters, the longest DNS allows', async () => {
  const name = hostname(7, 253);
  expect(name).toHaveLength(253);
  const page = await get(`${name}:3000`, '/about');
  expect(page.status).toBe(200);
  expect(page.body).toContain(`"apiBaseUrl":"http://${name}:3004"`);
});

it.each([
  ['a hostname of 254 characters', `${hostname(1, 254)}:3000`],
  ['a hostname of 8 kB', `${hostname(2, 8 * 1024)}:3000`],
  ['a label of 64 characters', `${'a'.repeat(64)}.test:3000`],
  ['a path', 'evil.test/gifts:3000'],
  ['user information', 'user@evil.test:3000'],
  ['a space', 'evil .test:3000'],
  ['an empty label', 'evil..test:3000'],
  ['an unclosed IPv6 address', '[::1:3000'],
  ['a port that is not a number', 'evil.test:http'],
])('refuses a Host header with %s (400), rendering and keeping nothing', async (_, host) => {
  const before = handler.kept();
  for (const path of [`/gifts/${ID}`, '/config.json', '/robots.txt']) {
    const answer = await get(host, path);
    expect([path, answer.status, answer.body]).toEqual([
      path,
      400,
      'Bad request: the Host header does not name a valid host',
    ]);
  }
  expect(handler.kept()).toEqual(before);
});
