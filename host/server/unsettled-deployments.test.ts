/**
 * @jest-environment node
 *
 * Pages given builds while a remote's deployment is unsettled (a canary running, or a change in
 * the last UNSETTLED_DEPLOYMENT_MS) are told to ask for their builds on each navigation: when the
 * host's server reads the change (its file's Last-Modified, or its own first sight of it), what
 * its pages' inline configuration and `GET /remote-builds.json` say, and that a page kept
 * rendered never carries a flag the deployment no longer calls for.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNSETTLED_DEPLOYMENT_MS, type DeploymentState } from 'shared/deployment';
import { RUNTIME_CONFIG_ELEMENT_ID } from 'shared/page-data';
import { parseRuntimeConfig, type RuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { listenRoutes } from 'server/testing/listen-routes';
import { createHostHandler } from './host-handler';
import { changedAtOf } from './remote-deployments';
import { createRemoteSources } from './remote-sources';
import type { RemoteDeployment, RemoteSnapshot } from './remote-snapshot';

const MINUTE = 60_000;
const servers: Server[] = [];
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'host-unsettled-test-'));
  mkdirSync(join(tmp, 'dist'));
  writeFileSync(
    join(tmp, 'dist', 'index.html'),
    '<!doctype html><html><head><title>Gift Box</title></head><body><div id="root"></div></body></html>\n',
  );
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('changedAtOf', () => {
  const now = 1_000 * MINUTE;
  const lastModified = new Date(now - 5 * MINUTE).toUTCString();

  it("takes the file's Last-Modified, and a change this server saw when that is later", () => {
    expect(changedAtOf(lastModified, undefined, 'a', now)).toBe(now - 5 * MINUTE);
    expect(changedAtOf(lastModified, { text: 'a', at: now - MINUTE }, 'a', now)).toBe(now - MINUTE);
    expect(changedAtOf(lastModified, { text: 'a', at: undefined }, 'b', now)).toBe(now);
  });

  it('knows no change at a first read without Last-Modified, and counts one seen from then on', () => {
    expect(changedAtOf(null, undefined, 'a', now)).toBeUndefined();
    expect(changedAtOf(null, { text: 'a', at: undefined }, 'a', now)).toBeUndefined();
    expect(changedAtOf(null, { text: 'a', at: undefined }, 'b', now)).toBe(now);
    expect(changedAtOf(null, { text: 'b', at: now - 2 * MINUTE }, 'b', now)).toBe(now - 2 * MINUTE);
  });

  it('counts a Last-Modified in the future as now, and one it cannot read as none', () => {
    expect(changedAtOf(new Date(now + 60 * MINUTE).toUTCString(), undefined, 'a', now)).toBe(now);
    expect(changedAtOf('yesterday-ish', undefined, 'a', now)).toBeUndefined();
  });
});

describe("the remote sources' changedAt", () => {
  /** The content remote at `base`; the others at a port nothing listens on, never read. */
  const contentAt = (base: string) => ({
    ...everyRemote((name) => `http://127.0.0.1:9/${name}/mf-manifest.json`),
    content: `${base}/mf-manifest.json`,
  });

  /** A content remote with build `id` at its root; `modified` its deployment file's Last-Modified, if any. */
  async function contentRemote() {
    const files = new Map<string, string>();
    const remote = { files, modified: undefined as Date | undefined, base: '' };
    const publish = (state: DeploymentState) => {
      const { id } = state;
      files.set(
        '/mf-manifest.json',
        JSON.stringify({
          metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' },
          exposes: [{ name: 'AboutPage', assets: { js: { sync: [`about.${id}.js`] } } }],
        }),
      );
      files.set('/builds/latest.json', JSON.stringify(state));
      files.set('/prerender/pages.css', '.p-content{margin:0}');
      for (const module of ['HomePage', 'AboutPage', 'PrivacyPolicyPage', 'TermsPage']) {
        const page = { buildId: id, html: `<h1>${id}</h1>`, state: { queries: [] } };
        files.set(`/prerender/${module}.json`, JSON.stringify(page));
      }
    };
    remote.base = await listen(
      createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const body = files.get(path);
        if (path === '/builds/latest.json' && remote.modified)
          res.setHeader('Last-Modified', remote.modified.toUTCString());
        res.statusCode = body === undefined ? 404 : 200;
        res.end(body ?? 'Not found');
      }),
    );
    return { ...remote, publish, setModified: (date: Date | undefined) => (remote.modified = date) };
  }

  it('is the deployment file’s Last-Modified: a restarted server still knows a rollback of minutes ago', async () => {
    const remote = await contentRemote();
    remote.publish({ id: 's1', timestamp: 1 });
    const modified = new Date(Math.floor(Date.now() / 1000) * 1000 - 3 * MINUTE);
    remote.setModified(modified);
    const sources = createRemoteSources({ remotes: contentAt(remote.base), log: () => undefined });
    await sources.refresh();
    expect(sources.deployment('content')?.changedAt).toBe(modified.getTime());
  });

  it('without Last-Modified, is unknown at first and the time this server saw the deployment change after', async () => {
    const remote = await contentRemote();
    remote.publish({ id: 's1', timestamp: 1, canary: { id: 'c2', percent: 10, since: 2 } });
    let now = 500 * MINUTE;
    const sources = createRemoteSources({
      remotes: contentAt(remote.base),
      log: () => undefined,
      now: () => now,
    });
    await sources.refresh();
    expect(sources.deployment('content')?.changedAt).toBeUndefined();
    now += MINUTE;
    await sources.refresh();
    expect(sources.deployment('content')?.changedAt).toBeUndefined();
    // The canary is aborted: the same stable build, without it.
    remote.publish({ id: 's1', timestamp: 1 });
    now += MINUTE;
    await sources.refresh();
    const abortedAt = now;
    expect(sources.deployment('content')?.changedAt).toBe(abortedAt);
    now += MINUTE;
    await sources.refresh();
    expect(sources.deployment('content')?.changedAt).toBe(abortedAt);
  });
});

describe('what pages are told', () => {
  const config: RuntimeConfig = parseRuntimeConfig({
    remotes: { ...everyRemote(), content: 'https://content.example.com/mf-manifest.json' },
    apiBaseUrl: 'https://api.example.com',
  });
  const snapshot = (buildId: string): RemoteSnapshot => ({
    buildId,
    manifestUrl: config.remotes.content,
    remoteEntry: `https://content.example.com/remoteEntry.js`,
    exposes: new Map([['AboutPage', { scripts: [], sharedScripts: [] }]]),
    integrity: new Map(),
    prerendered: new Map(),
  });

  /** The host's server over a content deployment the test changes. */
  async function startHost(deployment: RemoteDeployment) {
    const handler = createHostHandler({
      root: join(tmp, 'dist'),
      config,
      sources: { snapshot: () => undefined, deployment: (remote) => (remote === 'content' ? deployment : undefined) },
    });
    const server = await listenRoutes(handler);
    servers.push(server);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cookie = 'gb_cohort=7';
    return {
      /** The /about page's inline configuration and what `/remote-builds.json` answers, for one cohort. */
      async told() {
        const html = await (await fetch(`${base}/about`, { headers: { accept: 'text/html', cookie } })).text();
        const inline = new RegExp(`id="${RUNTIME_CONFIG_ELEMENT_ID}">(.*?)</script>`).exec(html)?.[1];
        const answer = await (await fetch(`${base}/remote-builds.json`, { headers: { cookie } })).json();
        return { config: JSON.parse(inline ?? 'null') as RuntimeConfig, answer: answer as Record<string, unknown> };
      },
    };
  }

  it('asks for a check on each navigation while a canary runs, whatever cohort', async () => {
    const deployment: RemoteDeployment = {
      state: { id: 's1', timestamp: 1, canary: { id: 'c2', percent: 0, since: 1 } },
      builds: new Map([
        ['s1', snapshot('s1')],
        ['c2', snapshot('c2')],
      ]),
      copies: new Set(['s1']),
    };
    const { told } = await startHost(deployment);
    const { config: inline, answer } = await told();
    expect(inline.remoteBuilds?.content).toBe('s1');
    expect(inline.checkBuildsOnNavigation).toBe(true);
    expect(answer).toEqual({ builds: { content: 's1' }, checkOnNavigation: true });
  });

  it('asks for it within 15 minutes of a change, and not after: a page kept rendered says what is true now', async () => {
    expect(UNSETTLED_DEPLOYMENT_MS).toBe(15 * MINUTE);
    const deployment: RemoteDeployment = {
      state: { id: 's1', timestamp: 1 },
      builds: new Map([['s1', snapshot('s1')]]),
      copies: new Set(),
      changedAt: Date.now() - 14 * MINUTE,
    };
    const { told } = await startHost(deployment);
    const recent = await told();
    expect(recent.config.checkBuildsOnNavigation).toBe(true);
    expect(recent.answer).toEqual({ builds: { content: 's1' }, checkOnNavigation: true });

    // The same deployment, read at the same time: only the clock has moved past the window.
    deployment.changedAt = Date.now() - 16 * MINUTE;
    const settled = await told();
    expect(settled.config.remoteBuilds?.content).toBe('s1');
    expect(settled.config.checkBuildsOnNavigation).toBeUndefined();
    expect(settled.answer).toEqual({ builds: { content: 's1' } });

    delete deployment.changedAt;
    expect((await told()).config.checkBuildsOnNavigation).toBeUndefined();
  });
});
