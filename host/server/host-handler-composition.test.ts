/**
 * @jest-environment node
 *
 * The site composed at run time: a remote the host's build never saw, configured by ADDED_REMOTES,
 * REMOTE_<NAME>_URL and REMOTE_<NAME>_PATHS, is served at the paths it publishes within its grant,
 * by the host's server reading stand-in remotes on loopback.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RuntimeConfig } from 'shared/runtime-config';
import { listenRoutes } from 'server/testing/listen-routes';
import { createHostHandler } from './host-handler';
import { RenderPools } from './remote-renderers';
import { createRemoteSources, type RemoteSources } from './remote-sources';
import { runtimeConfigFromEnv } from './runtime-config-from-env';
import { SiteComposition } from './site-composition';

const INDEX_HTML =
  '<!doctype html><html><head><title>Gift Box</title><script defer src="/main.js"></script></head>' +
  '<body><div id="root"></div></body></html>\n';
const NAVIGATE = { Accept: 'text/html' };
/** Nothing listens there: a remote that is down. */
const DOWN = 'http://127.0.0.1:9';

interface RouteOffer {
  path: string;
  layout: string;
  title: string;
  prerendered?: boolean;
  noindex?: boolean;
  serverData?: string;
  validator?: string;
}

/** A remote's stand-in on loopback: its files by path, changed by the test as a deploy would. */
class StandIn {
  readonly files = new Map<string, string>();
  server!: Server;
  base = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const body = this.files.get((req.url ?? '/').split('?')[0] ?? '/');
      res.statusCode = body === undefined ? 404 : 200;
      res.end(body ?? 'Not found');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Publishes build `id` of remote `name` with module `module`'s routes and its prerendered markup. */
  publish(id: string, name: string, module: string, routes: RouteOffer[]): void {
    this.publishRoutes(id, { version: 1, remote: name, exposes: { [module]: { routes } } }, [module]);
    this.files.set('/prerender/pages.css', '.news{margin:0}');
    this.files.set(
      `/prerender/${module}.json`,
      JSON.stringify({ buildId: id, html: `<article class="news"><h1>Today's ${name}</h1></article>`, state: {} }),
    );
  }

  /** Publishes build `id` exposing `modules`, its manifest's routes document being `routes`, and no other file. */
  publishRoutes(id: string, routes: unknown, modules: string[]): void {
    this.files.set('/builds/latest.json', JSON.stringify({ id, timestamp: 1 }));
    this.files.set(
      '/mf-manifest.json',
      JSON.stringify({
        metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' },
        exposes: modules.map((module) => ({ name: module, assets: { js: { sync: [`${module}.${id}.js`] } } })),
        routes,
      }),
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const NEWS: RouteOffer = { path: '/news', layout: 'default', title: 'News', prerendered: true };

interface Site {
  base: string;
  log: string[];
  /** What the remotes' reader said. */
  sourcesLog: string[];
  sources: RemoteSources;
  config: RuntimeConfig;
}

let news: StandIn;
let dist: string;
const servers: Server[] = [];

beforeEach(async () => {
  news = await new StandIn().start();
  dist = mkdtempSync(join(tmpdir(), 'host-composition-'));
  writeFileSync(join(dist, 'index.html'), INDEX_HTML);
});

afterEach(async () => {
  await news.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(dist, { recursive: true, force: true });
});

/** The host's server for `env` beside the registry's remotes (down unless given), their first reading done. */
async function hostSite(env: Record<string, string>, renderPools?: RenderPools): Promise<Site> {
  const config = runtimeConfigFromEnv({
    REMOTE_GIFTS_URL: `${DOWN}/gifts/mf-manifest.json`,
    REMOTE_REDEEM_URL: `${DOWN}/redeem/mf-manifest.json`,
    REMOTE_CONTENT_URL: `${DOWN}/content/mf-manifest.json`,
    API_BASE_URL: 'https://api.example.com',
    ADDED_REMOTES: 'news',
    REMOTE_NEWS_URL: `${news.base}/mf-manifest.json`,
    ...env,
  });
  const log: string[] = [];
  const sourcesLog: string[] = [];
  const sources = createRemoteSources({
    remotes: config.remotes,
    grants: config,
    renderPools,
    timeoutMs: 2_000,
    log: (message) => sourcesLog.push(message),
  });
  await sources.refresh();
  const site = new SiteComposition({ config, snapshot: (remote) => sources.snapshot(remote), log: (m) => log.push(m) });
  const server = await listenRoutes(createHostHandler({ root: dist, config, sources, site }));
  servers.push(server);
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log, sourcesLog, sources, config };
}

async function page(site: Site, path: string): Promise<{ status: number; body: string; config: RuntimeConfig }> {
  const res = await fetch(`${site.base}${path}`, { headers: NAVIGATE });
  const body = await res.text();
  const inline = /<script type="application\/json" id="gift-box-config">(.*?)<\/script>/.exec(body)?.[1];
  return { status: res.status, body, config: JSON.parse(inline ?? 'null') as RuntimeConfig };
}

const routeOf = (config: RuntimeConfig, path: string) => config.routes?.find((route) => route.path === path);

describe('a remote added to the running site', () => {
  it('is served at the path it publishes within its grant: its title, its prerendered markup, its build', async () => {
    news.publish('n1', 'news', 'NewsPage', [NEWS]);
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/news' });
    const answer = await page(site, '/news');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<title>News · Gift Box</title>');
    expect(answer.body).toContain(`<div id="root" data-prerendered="NewsPage">`);
    expect(answer.body).toContain("<h1>Today's news</h1>");
    expect(routeOf(answer.config, '/news')).toEqual({ ...NEWS, module: 'NewsPage', remote: 'news' });
    expect(answer.config.remoteBuilds?.news).toBe('n1');
    const builds = (await (await fetch(`${site.base}/remote-builds.json`)).json()) as { builds: object };
    expect(builds.builds).toEqual({ news: 'n1' });
    expect(site.log).toEqual([]);
  });

  it('is not served at a path it was not granted, and the refusal is logged once', async () => {
    news.publish('n1', 'news', 'NewsPage', [NEWS]);
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/stories' });
    const answer = await page(site, '/news');
    expect(answer.status).toBe(404);
    expect(routeOf(answer.config, '/news')).toBeUndefined();
    await page(site, '/');
    expect(site.log).toEqual([
      "The news remote's route /news (NewsPage) is left out: the path /news is not granted to news (granted: /stories; REMOTE_NEWS_PATHS, or routeGrants.news in a configuration file, grants paths)",
    ]);
  });

  it("claims no path of another remote nor one with an unknown layout, each refusal logged, the others' pages kept", async () => {
    news.publish('n1', 'news', 'NewsPage', [
      { path: '/', layout: 'default', title: 'Front page' },
      { path: '/game', layout: 'default', title: 'Not the game' },
      { path: '/news/fancy', layout: 'fancy', title: 'Fancy' },
      NEWS,
    ]);
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/news,/news/fancy' });
    for (const [path, remote] of [
      ['/', 'content'],
      ['/game', 'gifts'],
      ['/news', 'news'],
    ] as const) {
      const answer = await page(site, path);
      expect([path, answer.status, routeOf(answer.config, path)?.remote]).toEqual([path, 200, remote]);
    }
    expect((await page(site, '/news/fancy')).status).toBe(404);
    expect(site.log).toHaveLength(3);
    expect(site.log[0]).toMatch(/^The news remote's route \/news\/fancy \(NewsPage\) is left out: .*layout/);
    expect(site.log.slice(1)).toEqual([
      "The news remote's route / (NewsPage) is left out: the path / is not granted to news (granted: /news, /news/fancy; REMOTE_NEWS_PATHS, or routeGrants.news in a configuration file, grants paths)",
      "The news remote's route /game (NewsPage) is left out: the path /game is not granted to news (granted: /news, /news/fancy; REMOTE_NEWS_PATHS, or routeGrants.news in a configuration file, grants paths)",
    ]);
  });

  it('picks up a route added within its grant at the next refresh, and logs nothing while nothing changes', async () => {
    news.publish('n1', 'news', 'NewsPage', [NEWS]);
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/news,/news/today' });
    expect((await page(site, '/news/today')).status).toBe(404);
    await site.sources.refresh();
    expect((await page(site, '/news/today')).status).toBe(404);
    news.publish('n2', 'news', 'NewsPage', [NEWS, { path: '/news/today', layout: 'default', title: 'Today' }]);
    await site.sources.refresh();
    const answer = await page(site, '/news/today');
    expect([answer.status, answer.body.includes('<title>Today · Gift Box</title>')]).toEqual([200, true]);
    expect(site.log).toEqual([]);
  });

  it('has no routes while its manifest was never read, and gets them once it answers', async () => {
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/news' });
    expect((await page(site, '/news')).status).toBe(404);
    news.publish('n1', 'news', 'NewsPage', [NEWS]);
    await site.sources.refresh();
    expect((await page(site, '/news')).status).toBe(200);
  });
});

describe('a remote that is down', () => {
  it("keeps the registry's routes until its manifest is read, for a registry remote down at start", async () => {
    news.publish('n1', 'news', 'NewsPage', [NEWS]);
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/news' });
    expect(site.sources.snapshot('gifts')).toBeUndefined();
    const game = await page(site, '/game');
    expect([game.status, game.body.includes('<title>Play · Gift Box</title>')]).toEqual([200, true]);
    expect((await page(site, '/about')).status).toBe(200);
  });

  it('keeps the routes it last read while it is down', async () => {
    news.publish('n1', 'news', 'NewsPage', [NEWS]);
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/news' });
    expect((await page(site, '/news')).status).toBe(200);
    news.files.clear();
    await site.sources.refresh();
    expect((await page(site, '/news')).status).toBe(200);
  });
});

describe('the routes a remote was not granted', () => {
  it('are never read ahead: a refused prerendered page whose markup is missing leaves the granted pages served', async () => {
    news.publish('n1', 'news', 'NewsPage', [NEWS]);
    news.publishRoutes(
      'n1',
      {
        version: 1,
        remote: 'news',
        exposes: {
          NewsPage: { routes: [NEWS] },
          OldPage: { routes: [{ path: '/old', layout: 'default', title: 'Old', prerendered: true }] },
        },
      },
      ['NewsPage', 'OldPage'],
    );
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/news' });
    const answer = await page(site, '/news');
    expect([answer.status, answer.config.remoteBuilds?.news]).toEqual([200, 'n1']);
    expect(answer.body).toContain("<h1>Today's news</h1>");
    expect(site.sourcesLog.filter((line) => line.includes('news'))).toEqual([]);
  });

  it('start no render workers: a refused data page reads no render bundle', async () => {
    const pools = new RenderPools({ size: 1, memoryMb: 64, timeoutMs: 2_000 });
    try {
      news.publish('n1', 'news', 'NewsPage', [
        NEWS,
        { path: '/news/:giftId', layout: 'default', title: 'Data', validator: 'giftId', serverData: 'gift' },
      ]);
      const site = await hostSite({ REMOTE_NEWS_PATHS: '/news' }, pools);
      expect((await page(site, '/news')).status).toBe(200);
      expect(site.sourcesLog.filter((line) => line.includes('render.js'))).toEqual([]);
    } finally {
      await pools.close();
    }
  });
});

describe('a routes document refused as a whole', () => {
  it("leaves a registry remote its registry's routes, the refusal logged once", async () => {
    const gifts = await new StandIn().start();
    try {
      gifts.publish('g1', 'gifts', 'GamePage', []);
      gifts.publishRoutes('g1', { version: 2, remote: 'gifts', exposes: {} }, ['GamePage']);
      news.publish('n1', 'news', 'NewsPage', [NEWS]);
      const site = await hostSite({ REMOTE_NEWS_PATHS: '/news', REMOTE_GIFTS_URL: `${gifts.base}/mf-manifest.json` });
      expect(site.sources.snapshot('gifts')?.buildId).toBe('g1');
      const game = await page(site, '/game');
      expect([game.status, game.body.includes('<title>Play · Gift Box</title>')]).toEqual([200, true]);
      await site.sources.refresh();
      expect((await page(site, '/game')).status).toBe(200);
      expect(site.sourcesLog.filter((line) => line.includes('version 2'))).toHaveLength(1);
    } finally {
      await gifts.close();
    }
  });

  it('leaves an added remote the routes it last read', async () => {
    news.publish('n1', 'news', 'NewsPage', [NEWS]);
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/news' });
    expect((await page(site, '/news')).status).toBe(200);
    news.publishRoutes('n2', 'not a document', ['NewsPage']);
    await site.sources.refresh();
    expect(site.sources.snapshot('news')?.buildId).toBe('n2');
    expect((await page(site, '/news')).status).toBe(200);
    await site.sources.refresh();
    expect(site.sourcesLog.filter((line) => line.includes('left out'))).toEqual([
      "The news remote's routes is left out: the routes document is not an object",
    ]);
  });
});

describe('a private route of a remote', () => {
  it('keeps out of search engines only the pages that match it, not the paths that begin alike', async () => {
    news.publish('n1', 'news', 'NewsPage', [{ path: '/g', layout: 'default', title: 'G', noindex: true }]);
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/g' });
    const tag = async (path: string) =>
      (await fetch(`${site.base}${path}`, { headers: NAVIGATE })).headers.get('x-robots-tag');
    expect(await tag('/g')).toBe('noindex, nofollow');
    expect(await tag('/game')).toBeNull();
    expect(await tag('/gifts/AAAAAAAAAAAAAAAAAAAAAAAA')).toBe('noindex, nofollow');
    const robots = await (await fetch(`${site.base}/robots.txt`)).text();
    expect(robots).toBe('User-agent: *\nDisallow: /g$\nDisallow: /gifts/\nDisallow: /redeem/\nAllow: /\n');
  });

  it('at a parameter of the root leaves the rest of the site open', async () => {
    news.publish('n1', 'news', 'NewsPage', [{ path: '/:slug', layout: 'default', title: 'Story', noindex: true }]);
    const site = await hostSite({ REMOTE_NEWS_PATHS: '/:slug' });
    const tag = async (path: string) =>
      (await fetch(`${site.base}${path}`, { headers: NAVIGATE })).headers.get('x-robots-tag');
    expect(await tag('/a-story')).toBe('noindex, nofollow');
    expect(await tag('/about')).toBeNull();
    expect(await tag('/')).toBeNull();
    const robots = await (await fetch(`${site.base}/robots.txt`)).text();
    expect(robots).toBe('User-agent: *\nDisallow: /gifts/\nDisallow: /redeem/\nAllow: /\n');
  });
});
