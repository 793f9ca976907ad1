/**
 * The API learns the routes the remotes publish in their manifests: a remote added by
 * configuration (ADDED_REMOTES, REMOTE_NEWS_URL, REMOTE_NEWS_PATHS, as readServerConfig reads
 * them) is counted under its own routes, within its grant and the cap on learned routes, from
 * stand-in remotes serving their build files and manifests on a real HTTP server on loopback.
 */
import { PassThrough } from 'node:stream';
import { type Registry } from 'prom-client';
import { signTicket } from 'server/page-ticket';
import { registryRoutes } from 'shared/composition';
import { buildManifestUrl } from 'shared/deployment';
import { type TelemetryEvent } from 'shared/telemetry';
import { MAX_LEARNED_ROUTES } from 'shared/telemetry-labels';
import { type App } from '../src/app-context';
import { readServerConfig } from '../src/config';
import { harnessFor } from './support/harness';
import { valueOf } from './support/metrics';
import { startPartsServer, type PartsServer } from './support/parts-server';
import { DEFAULT_IP } from './support/test-app';
import { type TestClock } from './support/test-clock';
import { HIGH_LIMITS, TEST_TICKET_SECRET } from './support/test-config';

const harness = harnessFor('postgres');
const VITALS = 'giftbox_web_vital_seconds';
const RELOADS = 'giftbox_reloads_total';

let parts: PartsServer;
let app: App;
let metrics: Registry;
let clock: TestClock;
let logs: {
  level: number;
  msg: string;
  remote?: string;
  manifest?: string;
  routes?: { path: string; remote: string }[];
}[];

beforeEach(async () => {
  parts = await startPartsServer(['news']);
  parts.publish('news', 'n1');
});
afterEach(async () => {
  await parts.close();
});

/** The news remote's manifest, publishing `paths` on its one exposed module. */
const newsManifest = (paths: readonly string[]) => ({
  id: 'news',
  metaData: {},
  exposes: [],
  routes: {
    version: 1,
    remote: 'news',
    exposes: { NewsPage: { routes: paths.map((path) => ({ path, layout: 'default', title: 'News' })) } },
  },
});

/** The API, configured as an operator would: the registry's remotes and news, granted `grant`. */
async function startApi(grant: string, pollMs: number): Promise<void> {
  const { builds } = readServerConfig({
    ADDED_REMOTES: 'news',
    REMOTE_NEWS_URL: parts.manifests.news,
    REMOTE_NEWS_PATHS: grant,
    REMOTE_GIFTS_URL: parts.manifests.gifts,
    REMOTE_REDEEM_URL: parts.manifests.redeem,
    REMOTE_CONTENT_URL: parts.manifests.content,
    BUILDS_POLL_MS: String(pollMs),
  });
  logs = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) =>
    logs.push(
      ...chunk
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as (typeof logs)[0]),
    ),
  );
  ({ app, metrics, clock } = await harness.start(
    {
      builds: { ...builds, sources: { ...builds.sources, host: parts.sources.host as string } },
      limits: HIGH_LIMITS,
      logLevel: 'info',
    },
    { logStream },
  ));
}

/** A batch from a page of news's build n1, as the host's page sends it with its ticket. */
async function send(events: TelemetryEvent[]): Promise<void> {
  const ticket = signTicket(
    TEST_TICKET_SECRET,
    { news: { id: 'n1', channel: 'stable' } },
    clock.now().getTime() / 1000,
  );
  const response = await app.inject({
    method: 'POST',
    url: '/api/telemetry',
    payload: JSON.stringify({ host: 'h1', ticket, events }),
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'sec-fetch-site': 'same-site' },
    remoteAddress: DEFAULT_IP,
  });
  expect(response.statusCode).toBe(204);
}

const vital = (route: string): TelemetryEvent => ({
  kind: 'vital',
  name: 'LCP',
  value: 1500,
  route,
  remote: 'news',
  build: 'n1',
});

/** Waits (each check 20 ms apart, until the test's own timeout) until the logs hold a line `accepts`. */
async function untilLogged(accepts: (line: (typeof logs)[0]) => boolean): Promise<void> {
  while (!logs.some(accepts)) await new Promise((resolve) => setTimeout(resolve, 20));
}

const composedWith = (path: string) => (line: (typeof logs)[0]) =>
  line.routes?.some((route) => route.path === path) ?? false;

it('counts an added remote’s events under its route and remote, an ungranted route it publishes as other', async () => {
  parts.publishManifest('news', newsManifest(['/news', '/news/admin']));
  await startApi('/news', 60_000);

  await send([vital('/news'), { kind: 'reload', route: '/news/admin', remote: 'news', build: 'n1' }]);

  expect(await valueOf(metrics, VITALS, { route: '/news', remote: 'news', build: 'n1' }, '_count')).toBe(1);
  expect(await valueOf(metrics, RELOADS, { route: 'other', remote: 'news', build: 'n1' })).toBe(1);
  expect(await metrics.metrics()).not.toContain('route="/news/admin"');
  // The refusal is logged with its reason.
  expect(logs.map(({ msg }) => msg)).toContainEqual(
    expect.stringContaining(
      "The news remote's route /news/admin (NewsPage) is left out: the path /news/admin is not granted",
    ),
  );
});

it('learns a route a redeploy publishes at the next poll', async () => {
  parts.publishManifest('news', newsManifest(['/news']));
  await startApi('/news,/news/:storyId', 20);
  await send([vital('/news/:storyId')]);
  expect(await valueOf(metrics, VITALS, { route: 'other', remote: 'news' }, '_count')).toBe(1);

  parts.publishManifest('news', newsManifest(['/news', '/news/:storyId']));
  parts.publish('news', 'n1');
  await untilLogged(composedWith('/news/:storyId'));
  await send([vital('/news/:storyId')]);

  expect(await valueOf(metrics, VITALS, { route: '/news/:storyId', remote: 'news' }, '_count')).toBe(1);
});

it('keeps the routes it learned while a remote’s manifest cannot be read', async () => {
  parts.publishManifest('news', newsManifest(['/news']));
  await startApi('/news', 20);

  parts.fail('news', 503);
  await untilLogged(({ manifest }) => manifest === parts.manifests.news);
  await send([vital('/news')]);

  expect(await valueOf(metrics, VITALS, { route: '/news', remote: 'news' }, '_count')).toBe(1);
});

it(`learns at most ${MAX_LEARNED_ROUTES} routes beyond the registry’s: the rest count as other, each logged once`, async () => {
  const paths = Array.from({ length: MAX_LEARNED_ROUTES + 4 }, (_, n) => `/n${String(n).padStart(2, '0')}`);
  parts.publishManifest('news', newsManifest(paths));
  await startApi(paths.join(','), 20);
  const last = paths[MAX_LEARNED_ROUTES - 1] as string;
  const beyond = paths[MAX_LEARNED_ROUTES] as string;

  await send([vital(last), vital(beyond)]);

  expect(await valueOf(metrics, VITALS, { route: last, remote: 'news' }, '_count')).toBe(1);
  expect(await valueOf(metrics, VITALS, { route: 'other', remote: 'news' }, '_count')).toBe(1);
  // Polls after the first read the same manifest again: the refusals are not logged again.
  const manifestReads = () => parts.requests.filter((path) => path === '/news/mf-manifest.json').length;
  const readsNow = manifestReads();
  while (manifestReads() < readsNow + 3) await new Promise((resolve) => setTimeout(resolve, 20));
  const capped = logs.filter(({ msg }) => msg.includes(`the API learns at most ${MAX_LEARNED_ROUTES} routes`));
  expect(capped.map(({ msg }) => msg.split(' ')[4])).toEqual(paths.slice(MAX_LEARNED_ROUTES));
});

it('learns the routes a running canary publishes in its own copy of the manifest', async () => {
  parts.publishManifest('news', newsManifest(['/news']));
  parts.publishManifest('news', newsManifest(['/news', '/news/:storyId']), 'n2');
  parts.publish('news', 'n1', undefined, { canary: { id: 'n2', percent: 10, since: 1 } });
  await startApi('/news,/news/:storyId', 60_000);

  await send([vital('/news'), vital('/news/:storyId')]);

  expect(await valueOf(metrics, VITALS, { route: '/news', remote: 'news' }, '_count')).toBe(1);
  expect(await valueOf(metrics, VITALS, { route: '/news/:storyId', remote: 'news' }, '_count')).toBe(1);
});

it('counts a browser’s CSP report from a page of a learned route under that route', async () => {
  parts.publishManifest('news', newsManifest(['/news/:storyId']));
  await startApi('/news/:storyId', 60_000);

  const response = await app.inject({
    method: 'POST',
    url: '/api/telemetry/csp',
    payload: JSON.stringify([
      {
        type: 'csp-violation',
        body: {
          documentURL: 'http://localhost:3000/news/Story1',
          blockedURL: 'inline',
          effectiveDirective: 'script-src',
        },
      },
    ]),
    headers: { 'content-type': 'application/reports+json' },
    remoteAddress: DEFAULT_IP,
  });

  expect(response.statusCode).toBe(204);
  expect(await valueOf(metrics, 'giftbox_csp_violations_total', { route: '/news/:storyId', source: 'report' })).toBe(1);
});

/** Waits until `path` has been requested `count` more times than now: as many more polls. */
async function untilRequested(path: string, count: number): Promise<void> {
  const reads = () => parts.requests.filter((requested) => requested === path).length;
  const readsNow = reads();
  while (reads() < readsNow + count) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The table the API last said it labels telemetry with. */
const lastComposition = () => logs.filter(({ routes }) => routes !== undefined).at(-1)?.routes ?? [];

it('learns the stable build’s routes while its canary’s copy is not there yet, naming that copy once', async () => {
  parts.publishManifest('news', newsManifest(['/news']));
  parts.publish('news', 'n1', undefined, { canary: { id: 'n2', percent: 10, since: 1 } });
  await startApi('/news', 20);
  const canaryCopy = buildManifestUrl(parts.manifests.news as string, 'n2');

  await send([vital('/news')]);
  await untilRequested(new URL(canaryCopy).pathname, 3);

  expect(await valueOf(metrics, VITALS, { route: '/news', remote: 'news' }, '_count')).toBe(1);
  const failures = logs.filter(({ msg, remote }) => remote === 'news' && msg.startsWith('routes: cannot read'));
  expect(failures).toEqual([
    expect.objectContaining({ manifest: canaryCopy, msg: expect.stringContaining(canaryCopy) }),
  ]);
});

it('keeps the routes it learned when a remote’s routes document is refused whole, logging the refusal once', async () => {
  parts.publishManifest('news', newsManifest(['/news']));
  await startApi('/news', 20);

  parts.publishManifest('news', { ...newsManifest(['/news']), routes: { ...newsManifest([]).routes, version: 2 } });
  const refusedWhole = ({ msg }: (typeof logs)[0]) => msg.includes("the routes document's version 2 is not 1");
  await untilLogged(refusedWhole);
  await untilRequested('/news/mf-manifest.json', 3);
  await send([vital('/news')]);

  expect(await valueOf(metrics, VITALS, { route: '/news', remote: 'news' }, '_count')).toBe(1);
  expect(logs.filter(refusedWhole)).toHaveLength(1);
});

it('composes a registry remote never learned with the registry’s routes when its document is refused whole', async () => {
  parts.publishManifest('news', newsManifest(['/news']));
  parts.publishManifest('gifts', { id: 'gifts', metaData: {}, exposes: [], routes: { version: 2 } });
  await startApi('/news', 60_000);

  expect(logs.map(({ msg }) => msg)).toContainEqual(expect.stringContaining("The gifts remote's routes is left out"));
  for (const { path } of registryRoutes('gifts')) expect(lastComposition()).toContainEqual({ path, remote: 'gifts' });
});

it('composes the registry’s routes for a stable build whose manifest has no routes field, beside its canary’s', async () => {
  parts.publishManifest('news', newsManifest(['/news']));
  parts.publishManifest('content', { id: 'content', metaData: {}, exposes: [] });
  const canaryRoutes = {
    version: 1,
    remote: 'content',
    exposes: { HomePage: { routes: [registryRoutes('content')[0]] } },
  };
  parts.publishManifest('content', { id: 'content', metaData: {}, exposes: [], routes: canaryRoutes }, 'c2');
  parts.publish('content', 'c1', undefined, { canary: { id: 'c2', percent: 10, since: 1 } });
  await startApi('/news', 60_000);

  for (const { path } of registryRoutes('content'))
    expect(lastComposition()).toContainEqual({ path, remote: 'content' });
});
