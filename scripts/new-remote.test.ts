import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PORTS } from 'shared/ports';
import type { RemoteSpec } from 'shared/remotes';
import { freePort } from 'testbed/free-port';
import { startServer, stopProcess } from 'testbed/process';
import { ownSpecOf } from '../build/package-spec';
import type { PrerenderPages } from '../build/prerender-plugin';
import { makeBuild } from '../deploy/testing/fake-remote-build';
import { describeRemote, nextSteps, scaffoldRemote } from './new-remote';

const ROOT = join(__dirname, '..');

let root: string;
beforeEach(() => {
  // A repository root of its own, whose remote-news/ reaches the repository's build plugins and
  // packages as a scaffolded remote does.
  root = mkdtempSync(join(tmpdir(), 'new-remote-'));
  symlinkSync(join(ROOT, 'build'), join(root, 'build'));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm run new-remote', () => {
  it('makes a remote that carries its own spec: its page prerendered at its route, on the next free port', () => {
    const news = scaffoldRemote('news', root);
    const lastPort = Math.max(...Object.values(DEFAULT_PORTS).map((part) => part.port));
    expect(ownSpecOf(news.dir)).toEqual({
      name: 'news',
      spec: {
        packageDir: 'remote-news',
        port: lastPort + 1,
        portEnv: 'REMOTE_NEWS_PORT',
        urlEnv: 'REMOTE_NEWS_URL',
        exposes: {
          NewsPage: {
            file: './src/exposed/news-page.tsx',
            routes: [{ path: '/news', layout: 'default', title: 'News', prerendered: true }],
          },
        },
      } satisfies RemoteSpec,
    });
    expect(existsSync(join(news.dir, 'src', 'exposed', 'news-page.tsx'))).toBe(true);
    const webpackConfig = readFileSync(join(news.dir, 'webpack.config.ts'), 'utf8');
    expect(webpackConfig).toContain('spec: REMOTE_SPEC');
    expect(webpackConfig).not.toContain('readPort');
    expect(readFileSync(join(news.dir, 'server', 'main.ts'), 'utf8')).toContain('portEnv: REMOTE_SPEC.portEnv');
    expect(readFileSync(join(news.dir, 'package.json'), 'utf8')).not.toMatch(/__\w+__/);
  });

  it("renders the page at build time with the page's own component, from its spec", () => {
    const news = scaffoldRemote('news', root);
    // The build's prerender module, loaded as the prerender plugin runs it.
    const { prerenderPages } = jest.requireActual<{ prerenderPages: PrerenderPages }>(
      join(news.dir, 'build', 'prerender-pages.tsx'),
    );
    const pages = prerenderPages({});
    expect(pages.map((page) => page.module)).toEqual(['NewsPage']);
    expect(pages[0]?.html).toContain('<h1>News</h1>');
  });

  it('serves a deployed folder from its own server, on the port its own variable gives', async () => {
    const news = scaffoldRemote('news', root);
    const folder = makeBuild(join(root, 'srv', 'news'), 'n1', 1000);
    const port = await freePort();
    const server = await startServer({
      name: 'the news remote',
      command: process.execPath,
      args: ['--import', 'tsx', 'server/main.ts'],
      cwd: news.dir,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', REMOTE_NEWS_PORT: String(port), STATIC_ROOT: folder },
      output: 'pipe',
      health: `http://127.0.0.1:${port}/healthz`,
    });
    try {
      const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { build?: string };
      expect(health.build).toBe('n1');
      const manifest = await fetch(`http://127.0.0.1:${port}/mf-manifest.json`);
      expect(manifest.status).toBe(200);
    } finally {
      await stopProcess(server);
    }
  });

  it('gives the next remote the port after the one scaffolded before it', () => {
    const news = scaffoldRemote('news', root);
    expect(scaffoldRemote('sport', root).port).toBe(news.port + 1);
  });

  it('refuses a name of the registry, a folder that exists and a name no host would take', () => {
    expect(() => scaffoldRemote('gifts', root)).toThrow('gifts is a remote of the registry already');
    scaffoldRemote('news', root);
    expect(() => scaffoldRemote('news', root)).toThrow('remote-news exists already');
    for (const bad of ['News', '1news', 'news-desk', 'n'.repeat(41)])
      expect(() => describeRemote(bad, root)).toThrow("a remote's name is a lower-case letter");
  });

  it('tells the integrator to build and deploy it alone, then grant its paths and restart the servers in turn', () => {
    const steps = nextSteps(describeRemote('news', root));
    expect(steps).toContain('npm run build -w remote-news');
    expect(steps).toContain('npm run deploy -w remote-news -- /srv/gift-box/remotes/news');
    expect(steps).toContain('ADDED_REMOTES=news');
    expect(steps).toContain('REMOTE_NEWS_URL=https://<the site>/remotes/news/mf-manifest.json');
    expect(steps).toContain('REMOTE_NEWS_PATHS=/news');
    expect(steps).toContain('Rolling restarts');
    expect(steps).not.toContain('shared/src/remotes.ts');
  });
});
