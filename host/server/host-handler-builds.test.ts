/**
 * @jest-environment node
 *
 * Each visitor's builds of the remotes (remote-build-choice.ts), from the host's server on loopback
 * reading a remote on loopback whose deployment has a stable build, the one before it and a
 * canary: the cohort cookie a new visitor is given, the builds each cohort's pages name and
 * show, `GET /remote-builds.json`, a signed preview pinning a build for one browser (and a forged
 * one pinning nothing), a revoked build given to nobody, and the pages each remote's channels were
 * sent, counted.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsRegistry } from 'server/metrics';
import { verifyTicket } from 'server/page-ticket';
import { signPreview } from 'server/preview-token';
import { assignedBuild, canaryBucket, COHORT_COOKIE, type DeploymentState } from 'shared/deployment';
import { RUNTIME_CONFIG_ELEMENT_ID } from 'shared/page-data';
import { parseRuntimeConfig, type RuntimeConfig } from 'shared/runtime-config';
import { listenRoutes } from 'server/testing/listen-routes';
import { createHostHandler, type HostHandler } from './host-handler';
import { createHostMetrics } from './host-metrics';
import { createPageTickets } from './page-tickets';
import { createRemoteSources, type RemoteSources } from './remote-sources';

const INDEX_HTML =
  '<!doctype html><html><head><title>Gift Box</title><script defer src="/main.1a2b3c4d.js"></script></head>' +
  '<body><div id="root"></div></body></html>\n';
const NAVIGATE = { Accept: 'text/html' };
const KEY = 'content-team-preview-key-0123456789abcdef';
const OTHER_KEY = 'gifts-team-preview-key-0123456789abcdef';

/** The content remote's folder: files by path. */
const files = new Map<string, string>();

/** Publishes build `id` into `folder` ('/' or `/builds/{id}/`), its About page reading "`id` text". */
function publish(id: string, folder: string): void {
  files.set(
    `${folder}mf-manifest.json`,
    JSON.stringify({
      metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' },
      exposes: [{ name: 'AboutPage', assets: { js: { sync: [`__federation_expose_AboutPage.${id}.js`] } } }],
      integrity: { 'remoteEntry.js': `sha384-${Buffer.from(id.padEnd(48, '.')).toString('base64')}` },
    }),
  );
  files.set(`${folder}builds/latest.json`, JSON.stringify({ id, timestamp: 1 }));
  files.set(`${folder}prerender/pages.css`, '.p-content{margin:0}');
  for (const module of ['HomePage', 'AboutPage', 'PrivacyPolicyPage', 'TermsPage']) {
    const html = `<article class="p-content"><h1>${id} text</h1></article>`;
    files.set(`${folder}prerender/${module}.json`, JSON.stringify({ buildId: id, html, state: { queries: [] } }));
  }
}

/** Writes the remote's deployment, as the deploy and canary commands do. */
function deploy(state: DeploymentState): void {
  files.set('/builds/latest.json', JSON.stringify(state));
}

const servers: Server[] = [];
let tmp: string;
let remoteBase: string;
let config: RuntimeConfig;
let sources: RemoteSources;
let handler: HostHandler;
let base: string;
const log: string[] = [];
let scrape: () => Promise<string>;

beforeAll(async () => {
  // Stable s2 at the root (s1 before it), canary c3 and a staged build p4 in their copies only.
  for (const id of ['s1', 's2', 'c3', 'p4']) publish(id, `/builds/${id}/`);
  publish('s2', '/');
  deploy({ id: 's2', timestamp: 2, previous: 's1', canary: { id: 'c3', percent: 50, since: 3 } });
  const remote = createServer((req, res) => {
    const body = files.get((req.url ?? '/').split('?')[0] ?? '/');
    res.statusCode = body === undefined ? 404 : 200;
    res.end(body ?? 'Not found');
  });
  servers.push(remote);
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  remoteBase = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;

  tmp = mkdtempSync(join(tmpdir(), 'host-builds-test-'));
  mkdirSync(join(tmp, 'dist'));
  writeFileSync(join(tmp, 'dist', 'index.html'), INDEX_HTML);
  config = parseRuntimeConfig({
    remotes: {
      content: `${remoteBase}/mf-manifest.json`,
      // The others at a port nothing listens on: never read.
      gifts: 'http://127.0.0.1:9/gifts/mf-manifest.json',
      redeem: 'http://127.0.0.1:9/redeem/mf-manifest.json',
    },
    apiBaseUrl: 'https://api.example.com',
  });
  sources = createRemoteSources({ remotes: config.remotes, log: (message) => log.push(message) });
  await sources.refresh();
  const registry = createMetricsRegistry('host');
  scrape = () => registry.metrics();
  handler = createHostHandler({
    root: join(tmp, 'dist'),
    config,
    sources,
    previewKeys: { content: [KEY], gifts: [OTHER_KEY] },
    log: (message) => log.push(message),
    // The proxy in front says how the page was asked for.
    isHttps: (req: IncomingMessage) => req.headers['x-test-https'] === '1',
    metrics: createHostMetrics(registry),
  });
  const host = await listenRoutes(handler);
  servers.push(host);
  base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(tmp, { recursive: true, force: true });
});

/** Cohorts whose bucket for the content remote's canary c3 is under 50 (`canary`) or not (`stable`). */
function cohorts(channel: 'canary' | 'stable', count: number): number[] {
  const found: number[] = [];
  for (let cohort = 0; found.length < count; cohort += 1) {
    if (canaryBucket(cohort, 'content', 'c3') < 50 === (channel === 'canary')) found.push(cohort);
  }
  return found;
}

async function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers: { ...NAVIGATE, ...headers, ...(cookie ? { cookie } : {}) } });
  return { res, body: await res.text() };
}

function inlineConfig(html: string): RuntimeConfig {
  const match = new RegExp(`<script type="application/json" id="${RUNTIME_CONFIG_ELEMENT_ID}">(.*?)</script>`).exec(
    html,
  );
  return JSON.parse(match?.[1] ?? 'null') as RuntimeConfig;
}

const copy = (id: string) => `${remoteBase}/builds/${id}/mf-manifest.json`;

describe('cohorts', () => {
  it("gives a new visitor a cohort for a year, and their first page is already that cohort's", async () => {
    const { res, body } = await get('/about');
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(new RegExp(`^${COHORT_COOKIE}=\\d{1,4}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly$`));
    const cohort = Number(/=(\d+)/.exec(cookie ?? '')?.[1]);
    const expected = assignedBuild(sources.deployment('content')!.state, cohort, 'content').id;
    expect(inlineConfig(body).remoteBuilds).toEqual({ content: expected });
    // Over HTTPS (as its proxy says), the cookie is sent back only over HTTPS.
    const secure = await get('/about', undefined, { 'x-test-https': '1' });
    expect(secure.res.headers.getSetCookie()[0]).toMatch(/; HttpOnly; Secure$/);
  });

  it('keeps a valid cohort, and replaces one that is not a cohort', async () => {
    const kept = await get('/', `${COHORT_COOKIE}=42`);
    expect(kept.res.headers.getSetCookie()).toEqual([]);
    for (const bad of ['10000', 'abc', '-1', '']) {
      const { res } = await get('/', `${COHORT_COOKIE}=${bad}`);
      expect([bad, res.headers.getSetCookie()[0]]).toEqual([bad, expect.stringMatching(/^gb_cohort=\d+;/)]);
    }
  });

  it("gives a canary's cohort the canary from its own copy and a stable cohort the stable build, each with its fallback", async () => {
    const [canaryCohort] = cohorts('canary', 1);
    const [stableCohort] = cohorts('stable', 1);
    const canary = await get('/about', `theme=dark; ${COHORT_COOKIE}=${canaryCohort}`);
    expect(canary.res.headers.get('cache-control')).toBe('private, no-cache');
    expect(inlineConfig(canary.body)).toMatchObject({
      remotes: { content: copy('c3'), gifts: config.remotes.gifts },
      remoteBuilds: { content: 'c3' },
      remoteFallbacks: { content: copy('s2') },
      buildsUrl: '/remote-builds.json',
    });
    expect(canary.body).toContain(`<link rel="preload" href="${copy('c3')}" as="fetch" crossorigin>`);
    expect(canary.body).toContain(`href="${remoteBase}/builds/c3/remoteEntry.js" as="script"`);
    expect(canary.body).toContain('<h1>c3 text</h1>');

    const stable = await get('/about', `${COHORT_COOKIE}=${stableCohort}`);
    expect(inlineConfig(stable.body)).toMatchObject({
      remotes: { content: config.remotes.content },
      remoteBuilds: { content: 's2' },
      remoteFallbacks: { content: copy('s1') },
    });
    expect(stable.body).toContain(`href="${remoteBase}/remoteEntry.js" as="script"`);
    expect(stable.body).toContain('<h1>s2 text</h1>');
  });

  it('renders a page once per combination of builds, and sends each cohort the page of its builds', async () => {
    const before = handler.kept().pages;
    const etags = new Map<string, Set<string>>();
    for (const channel of ['canary', 'stable'] as const) {
      for (const cohort of cohorts(channel, 5)) {
        const { res, body } = await get('/terms', `${COHORT_COOKIE}=${cohort}`);
        expect(inlineConfig(body).remoteBuilds?.content).toBe(channel === 'canary' ? 'c3' : 's2');
        etags.set(channel, (etags.get(channel) ?? new Set()).add(res.headers.get('etag') ?? ''));
      }
    }
    expect([...etags.values()].map((tags) => tags.size)).toEqual([1, 1]);
    expect(handler.kept().pages).toBe(before + 2);
  });
});

describe('GET /remote-builds.json', () => {
  it('answers the builds a page of this visitor would get, never stored; the stable builds, and no cookie, for a visitor without a cohort', async () => {
    const none = await fetch(`${base}/remote-builds.json`);
    expect(none.status).toBe(200);
    expect(none.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(none.headers.get('cache-control')).toBe('private, no-store');
    expect(none.headers.getSetCookie()).toEqual([]);
    // A canary runs: the page asks on each navigation too.
    expect(await none.json()).toEqual({ builds: { content: 's2' }, checkOnNavigation: true });

    const [canaryCohort] = cohorts('canary', 1);
    const cookie = `${COHORT_COOKIE}=${canaryCohort}`;
    expect(await (await fetch(`${base}/remote-builds.json`, { headers: { cookie } })).json()).toEqual({
      builds: { content: 'c3' },
      checkOnNavigation: true,
    });
    const head = await fetch(`${base}/remote-builds.json`, { method: 'HEAD', headers: { cookie } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('follows the deployment: 0 % and 100 % give one build to every cohort, and an aborted canary gives stable', async () => {
    // A cohort in each bucket at the edges of 0 %, 50 % and 100 %: the first and last buckets,
    // and those either side of the half.
    const buckets = [0, 1, 49, 50, 98, 99];
    const cohortOf = (bucket: number) => {
      let cohort = 0;
      while (canaryBucket(cohort, 'content', 'c3') !== bucket) cohort += 1;
      return cohort;
    };
    const picked = buckets.map(cohortOf);
    const buildsOf = () =>
      Promise.all(
        picked.map(async (cohort) => {
          const res = await fetch(`${base}/remote-builds.json`, { headers: { cookie: `${COHORT_COOKIE}=${cohort}` } });
          return ((await res.json()) as { builds: Record<string, string> }).builds.content;
        }),
      );
    try {
      expect(await buildsOf()).toEqual(['c3', 'c3', 'c3', 's2', 's2', 's2']);
      deploy({ id: 's2', timestamp: 2, previous: 's1', canary: { id: 'c3', percent: 0, since: 3 } });
      await sources.refresh();
      expect(await buildsOf()).toEqual(Array(buckets.length).fill('s2'));
      deploy({ id: 's2', timestamp: 2, previous: 's1', canary: { id: 'c3', percent: 100, since: 3 } });
      await sources.refresh();
      expect(await buildsOf()).toEqual(Array(buckets.length).fill('c3'));
      deploy({ id: 's2', timestamp: 2, previous: 's1' });
      await sources.refresh();
      expect(await buildsOf()).toEqual(Array(buckets.length).fill('s2'));
    } finally {
      deploy({ id: 's2', timestamp: 2, previous: 's1', canary: { id: 'c3', percent: 50, since: 3 } });
      await sources.refresh();
    }
  });
});

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
/** A preview cookie's value pinning `remote` to `buildId`, signed with `key`, for an hour. */
const pin = (buildId: string, key = KEY, remote = 'content', audience = base) =>
  signPreview(key, { remote, buildId, expires: inAnHour(), audience });

describe('a preview pin', () => {
  const [stableCohort] = cohorts('stable', 1);

  it('signed with the remote’s key, pins it to the build for this browser: from its copy, without fallback, never kept', async () => {
    const before = handler.kept().pages;
    const cookie = `${COHORT_COOKIE}=${stableCohort}; gb_preview=${pin('p4')}`;
    const { res, body } = await get('/about', cookie);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const inline = inlineConfig(body);
    expect(inline).toMatchObject({ remotes: { content: copy('p4') }, remoteBuilds: { content: 'p4' } });
    expect(inline.remoteFallbacks?.content).toBeUndefined();
    expect(body).toContain('<h1>p4 text</h1>');
    expect(handler.kept().pages).toBe(before);
    expect(await (await fetch(`${base}/remote-builds.json`, { headers: { cookie } })).json()).toEqual({
      builds: { content: 'p4' },
      checkOnNavigation: true,
    });
  });

  it('over https, is read from the __Host- cookie only: a plain one pins nothing', async () => {
    const https = { 'x-test-https': '1' };
    const httpsOrigin = base.replace('http:', 'https:');
    const token = pin('p4', KEY, 'content', httpsOrigin);
    const pinned = await get('/about', `${COHORT_COOKIE}=${stableCohort}; __Host-gb_preview=${token}`, https);
    expect(inlineConfig(pinned.body).remoteBuilds).toEqual({ content: 'p4' });
    const plain = await get('/about', `${COHORT_COOKIE}=${stableCohort}; gb_preview=${token}`, https);
    expect(inlineConfig(plain.body).remoteBuilds).toEqual({ content: 's2' });
    const overHttp = await get('/about', `${COHORT_COOKIE}=${stableCohort}; gb_preview=${token}`);
    expect(inlineConfig(overHttp.body).remoteBuilds).toEqual({ content: 's2' });
  });

  it.each([
    ['forged', () => `${pin('p4').slice(0, -4)}AAAA`, 'the signature does not verify'],
    ['unsigned', () => `v2~content~p4~9999999999~${base}~`, 'the signature does not verify'],
    ['for another host', () => pin('p4', KEY, 'content', 'https://staging.example'), 'the token is for another host'],
    ['signed with another remote’s key', () => pin('p4', OTHER_KEY), 'the signature does not verify'],
    [
      'for a remote without a key',
      () => pin('p4', KEY, 'redeem'),
      'no preview key is configured for the redeem remote',
    ],
    ['for a build without a copy', () => pin('nowhere'), "content remote's build nowhere pins nothing"],
  ])(
    '%s, pins nothing: the visitor gets their cohort’s builds, and the server says why once',
    async (_, token, reason) => {
      const cookie = `${COHORT_COOKIE}=${stableCohort}; gb_preview=${token()}`;
      for (let n = 0; n < 2; n += 1) {
        const { res, body } = await get('/about', cookie);
        expect(res.headers.get('cache-control')).toBe('private, no-cache');
        expect(inlineConfig(body).remoteBuilds).toEqual({ content: 's2' });
        expect(body).toContain('<h1>s2 text</h1>');
      }
      expect(log.filter((line) => line.includes(reason))).toHaveLength(1);
    },
  );
});

describe('telemetry tickets', () => {
  const SECRET = 'page-ticket-secret-for-tests-0123456789';
  let ticketBase: string;
  beforeAll(async () => {
    const withTickets = createHostHandler({
      root: join(tmp, 'dist'),
      config,
      sources,
      previewKeys: { content: [KEY] },
      log: () => undefined,
      tickets: createPageTickets(SECRET),
    });
    const server = await listenRoutes(withTickets);
    servers.push(server);
    ticketBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  const ticketOf = (cookies: string[]) => {
    const cookie = cookies.find((line) => line.startsWith('gb_ticket='));
    return {
      cookie,
      ticket: verifyTicket(cookie?.split(';')[0]?.slice('gb_ticket='.length), [SECRET], Date.now() / 1000).ticket,
    };
  };

  it('gives each page a ticket of its own naming the builds it was given, in a short-lived cookie its script reads', async () => {
    const [canaryCohort] = cohorts('canary', 1);
    const [stableCohort] = cohorts('stable', 1);
    const canary = await fetch(`${ticketBase}/about`, {
      headers: { ...NAVIGATE, cookie: `${COHORT_COOKIE}=${canaryCohort}` },
    });
    const first = ticketOf(canary.headers.getSetCookie());
    expect(first.cookie).toMatch(/; Path=\/; Max-Age=120; SameSite=Strict$/);
    expect(first.ticket?.builds).toEqual({ content: { id: 'c3', channel: 'canary', fallback: 's2' } });
    const again = ticketOf(
      (
        await fetch(`${ticketBase}/about`, { headers: { ...NAVIGATE, cookie: `${COHORT_COOKIE}=${canaryCohort}` } })
      ).headers.getSetCookie(),
    );
    expect(again.ticket?.nonce).not.toBe(first.ticket?.nonce);
    const stable = await fetch(`${ticketBase}/about`, {
      headers: { ...NAVIGATE, cookie: `${COHORT_COOKIE}=${stableCohort}` },
    });
    expect(ticketOf(stable.headers.getSetCookie()).ticket?.builds).toEqual({
      content: { id: 's2', channel: 'stable', fallback: 's1' },
    });
  });

  it('answers a fresh ticket with the builds a page switches to, and a preview’s build as a preview', async () => {
    const [canaryCohort] = cohorts('canary', 1);
    const answer = (await (
      await fetch(`${ticketBase}/remote-builds.json`, { headers: { cookie: `${COHORT_COOKIE}=${canaryCohort}` } })
    ).json()) as { builds: Record<string, string>; ticket: string };
    expect(answer.builds).toEqual({ content: 'c3' });
    expect(verifyTicket(answer.ticket, [SECRET], Date.now() / 1000).ticket?.builds).toEqual({
      content: { id: 'c3', channel: 'canary', fallback: 's2' },
    });
    const token = signPreview(KEY, {
      remote: 'content',
      buildId: 'p4',
      expires: Math.floor(Date.now() / 1000) + 600,
      audience: ticketBase,
    });
    const pinned = await fetch(`${ticketBase}/about`, {
      headers: { ...NAVIGATE, cookie: `${COHORT_COOKIE}=${canaryCohort}; gb_preview=${token}` },
    });
    expect(ticketOf(pinned.headers.getSetCookie()).ticket?.builds).toEqual({
      content: { id: 'p4', channel: 'preview' },
    });
  });

  it('gives none where the handler has no secret', async () => {
    const page = await fetch(`${base}/about`, { headers: NAVIGATE });
    expect(page.headers.getSetCookie().some((line) => line.startsWith('gb_ticket='))).toBe(false);
  });
});

describe('a revoked build', () => {
  it('is never a fallback, a canary or a preview’s pin, even one read and kept before it was revoked', async () => {
    const [canaryCohort] = cohorts('canary', 1);
    const [stableCohort] = cohorts('stable', 1);
    const pinned = `${COHORT_COOKIE}=${stableCohort}; gb_preview=${pin('p4')}`;
    expect(inlineConfig((await get('/about', pinned)).body).remoteBuilds).toEqual({ content: 'p4' });
    try {
      // A deployment whose writer left the revoked canary and previous in place: readers drop them.
      deploy({
        id: 's2',
        timestamp: 2,
        previous: 's1',
        canary: { id: 'c3', percent: 50, since: 3 },
        revoked: ['p4', 'c3', 's1'],
      });
      await sources.refresh();
      for (const cookie of [pinned, `${COHORT_COOKIE}=${canaryCohort}`, `${COHORT_COOKIE}=${stableCohort}`]) {
        const { body } = await get('/about', cookie);
        const inline = inlineConfig(body);
        expect(inline.remoteBuilds).toEqual({ content: 's2' });
        expect(inline.remoteFallbacks).toBeUndefined();
        expect(body).toContain('<h1>s2 text</h1>');
        expect(await (await fetch(`${base}/remote-builds.json`, { headers: { cookie } })).json()).toEqual({
          builds: { content: 's2' },
          checkOnNavigation: true,
        });
      }
      expect(log.filter((line) => line.includes("the content remote's build p4 is revoked"))).toHaveLength(1);
      expect(await sources.pinned('content', 'p4')).toBeUndefined();
    } finally {
      deploy({ id: 's2', timestamp: 2, previous: 's1', canary: { id: 'c3', percent: 50, since: 3 } });
      await sources.refresh();
    }
  });
});

test("counts the pages sent by each remote's channel", async () => {
  const text = await scrape();
  const samples = text.split('\n').filter((line) => line.startsWith('giftbox_remote_build_pages_total{'));
  expect(samples.map((line) => line.replace(/\} \d+$/, '}')).sort()).toEqual([
    'giftbox_remote_build_pages_total{remote="content",channel="canary",part="host"}',
    'giftbox_remote_build_pages_total{remote="content",channel="preview",part="host"}',
    'giftbox_remote_build_pages_total{remote="content",channel="stable",part="host"}',
  ]);
});
