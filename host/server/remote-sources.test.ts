/** @jest-environment node */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { everyRemote } from 'shared/testing/runtime-config';
import type { DeploymentState } from 'shared/deployment';
import { createHash } from 'node:crypto';
import { RenderPools } from './remote-renderers';
import { readManifest, sharedModulesOf } from './remote-manifest-reading';
import { createRemoteSources } from './remote-sources';

/** A content remote on loopback: its files by path, and every request it answered. */
interface FakeRemote {
  files: Map<string, string>;
  requests: string[];
  /** While set, requests are held unanswered. */
  hang: boolean;
  /** While set, a HEAD request is refused (405), as some CDNs do. */
  refuseHead?: boolean;
  /** While set, bodies are sent in chunks with no Content-Length, as a stream is. */
  chunked?: boolean;
  server: Server;
  base: string;
}

const servers: Server[] = [];

async function startRemote(): Promise<FakeRemote> {
  const remote = { files: new Map<string, string>(), requests: [] as string[], hang: false } as FakeRemote;
  remote.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    remote.requests.push(path);
    if (remote.hang) return;
    if (remote.refuseHead && req.method === 'HEAD') {
      res.statusCode = 405;
      res.end();
      return;
    }
    const body = remote.files.get(path);
    res.statusCode = body === undefined ? 404 : 200;
    if (remote.chunked && body !== undefined) {
      for (let at = 0; at < body.length; at += 64 * 1024) res.write(body.slice(at, at + 64 * 1024));
      res.end();
      return;
    }
    res.end(body ?? 'Not found');
  });
  servers.push(remote.server);
  await new Promise<void>((resolve) => remote.server.listen(0, '127.0.0.1', resolve));
  remote.base = `http://127.0.0.1:${(remote.server.address() as AddressInfo).port}`;
  return remote;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function manifest(exposeChunk: string): string {
  return JSON.stringify({
    metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' },
    exposes: [{ name: 'AboutPage', assets: { js: { sync: [exposeChunk], async: ['later.js'] } } }],
  });
}

/**
 * Puts a build's files where a deploy does: at the root (`folder` '/'), or in the folder it
 * keeps the build in (`/builds/{id}/`).
 */
function publish(
  remote: FakeRemote,
  build: string,
  text: string,
  options: { folder?: string; timestamp?: number } = {},
): void {
  const folder = options.folder ?? '/';
  remote.files.set(`${folder}builds/latest.json`, JSON.stringify({ id: build, timestamp: options.timestamp ?? 1 }));
  remote.files.set(`${folder}mf-manifest.json`, manifest(`__federation_expose_AboutPage.${build}.js`));
  remote.files.set(`${folder}prerender/pages.css`, '.p-content{margin:0}');
  for (const module of ['HomePage', 'AboutPage', 'PrivacyPolicyPage', 'TermsPage']) {
    remote.files.set(
      `${folder}prerender/${module}.json`,
      JSON.stringify({
        buildId: build,
        html: `<article class="p-content"><h1 onclick="x()">${text}</h1></article>`,
        state: { queries: [{ text }] },
      }),
    );
  }
}

function sourcesFor(remote: FakeRemote, log: string[] = [], timeoutMs = 2_000, manifestPath = '/mf-manifest.json') {
  return createRemoteSources({
    // The other remotes at a port nothing listens on: refused at once.
    remotes: {
      ...everyRemote((name) => `http://127.0.0.1:9/${name}/mf-manifest.json`),
      content: `${remote.base}${manifestPath}`,
    },
    timeoutMs,
    log: (message) => log.push(message),
  });
}

describe("reading a remote's build", () => {
  it('names the entry and each page’s own scripts as absolute URLs, without the async ones', () => {
    const read = readManifest('https://cdn.example.com/content/v7/mf-manifest.json', JSON.parse(manifest('a.js')));
    expect(read.remoteEntry).toBe('https://cdn.example.com/content/v7/remoteEntry.js');
    expect(read.exposes.get('AboutPage')).toEqual({
      scripts: ['https://cdn.example.com/content/v7/a.js'],
      sharedScripts: [],
    });
    expect(() => readManifest('https://cdn.example.com/mf-manifest.json', { exposes: [] })).toThrow(
      'it names no remoteEntry',
    );
  });

  it("names the remote's copies of the shared modules a page uses that the host does not provide, and what those copies use in turn", () => {
    const body = {
      ...(JSON.parse(manifest('a.js')) as object),
      sharedFallbacks: {
        exposes: { AboutPage: ['react', 'shared/format', 'shared/browser/icons/icon'] },
        shared: {
          react: { js: ['react.js'], uses: [] },
          'shared/format': { js: ['format.js', 'a.js'], uses: [] },
          'shared/browser/icons/icon': { js: ['icon.js'], uses: ['shared/browser/icons/icon-names', 'react'] },
          'shared/browser/icons/icon-names': { js: ['names.js'], uses: [] },
        },
      },
    };
    const url = 'https://cdn.example.com/content/v7/mf-manifest.json';
    const shared = (hostShared?: string[]) =>
      readManifest(url, body, hostShared && new Set(hostShared)).exposes.get('AboutPage')?.sharedScripts;
    const at = (file: string) => `https://cdn.example.com/content/v7/${file}`;
    // The host provides the icon: the remote's icon, and the names only it uses, are not needed.
    expect(shared(['react', 'shared/browser/icons/icon'])).toEqual([at('format.js')]);
    expect(shared(['react'])).toEqual([at('format.js'), at('icon.js'), at('names.js')]);
    // What the host provides is not known: nothing is guessed.
    expect(shared()).toEqual([]);
    // A remote built before the field existed: no copies, the page's own scripts as before.
    expect(readManifest(url, JSON.parse(manifest('a.js')), new Set(['react'])).exposes.get('AboutPage')).toEqual({
      scripts: [at('a.js')],
      sharedScripts: [],
    });
  });

  it('gives the integrity the manifest records for each script, by the URL the browser loads it from', () => {
    const entryIntegrity = `sha384-${'A'.repeat(64)}`;
    const chunkIntegrity = `sha384-${'B'.repeat(64)}`;
    const body = {
      ...(JSON.parse(manifest('a.js')) as object),
      integrity: { 'remoteEntry.js': entryIntegrity, 'a.js': chunkIntegrity, 'broken.js': 'md5-nope' },
    };
    const read = readManifest('https://cdn.example.com/content/v7/mf-manifest.json', body);
    expect(read.integrity).toEqual(
      new Map([
        ['https://cdn.example.com/content/v7/remoteEntry.js', entryIntegrity],
        ['https://cdn.example.com/content/v7/a.js', chunkIntegrity],
      ]),
    );
    // A build from before integrity was recorded: none.
    expect(readManifest('https://cdn.example.com/mf-manifest.json', JSON.parse(manifest('a.js'))).integrity.size).toBe(
      0,
    );
  });

  it('refuses a manifest whose scripts are at an origin remotes may not come from, or whose public path it cannot check', () => {
    const url = 'https://cdn.example.com/content/mf-manifest.json';
    const elsewhere = {
      ...(JSON.parse(manifest('a.js')) as { metaData: object }),
      metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'https://evil.example/' },
    };
    expect(() => readManifest(url, elsewhere, undefined, ['https://cdn.example.com'])).toThrow(
      'its scripts are at https://evil.example, which is not an allowed remote origin',
    );
    expect(
      readManifest(url, elsewhere, undefined, ['https://cdn.example.com', 'https://evil.example']).remoteEntry,
    ).toBe('https://evil.example/remoteEntry.js');
    // The default: the manifest's own origin.
    expect(() => readManifest(url, elsewhere)).toThrow('not an allowed remote origin');
    const functionPath = {
      metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, getPublicPath: 'return "/"' },
    };
    expect(() => readManifest(url, functionPath)).toThrow('its publicPath is neither "auto" nor an absolute URL');
  });

  it("reads what a build provides from its manifest's shared list, and refuses a manifest without one", () => {
    expect(sharedModulesOf({ shared: [{ name: 'react' }, { name: 'shared/format' }, { version: '1' }] })).toEqual(
      new Set(['react', 'shared/format']),
    );
    expect(() => sharedModulesOf({ exposes: [] })).toThrow('it lists no shared modules');
  });

  it('reads the manifest and the prerendered pages, and again only when the build changes', async () => {
    const remote = await startRemote();
    publish(remote, 'b1', 'First text');
    const sources = sourcesFor(remote);
    await sources.refresh();
    const first = sources.snapshot('content');
    expect(first?.buildId).toBe('b1');
    expect(first?.remoteEntry).toBe(`${remote.base}/remoteEntry.js`);
    expect(first?.exposes.get('AboutPage')?.scripts).toEqual([`${remote.base}/__federation_expose_AboutPage.b1.js`]);
    expect(first?.prerendered.get('AboutPage')).toEqual({
      buildId: 'b1',
      html: '<article class="p-content"><h1>First text</h1></article>',
      state: { queries: [{ text: 'First text' }] },
    });
    expect(first?.prerenderCss).toBe('.p-content{margin:0}');

    remote.requests.length = 0;
    await sources.refresh();
    expect(remote.requests).toEqual(['/builds/latest.json']);
    expect(sources.snapshot('content')).toBe(first);

    publish(remote, 'b2', 'Second text');
    await sources.refresh();
    expect(sources.snapshot('content')?.buildId).toBe('b2');
    expect(sources.snapshot('content')?.prerendered.get('HomePage')?.html).toContain('Second text');
  });

  it('reads the prerendered pages its manifest publishes, not the registry’s, and keeps its routes with the build', async () => {
    const remote = await startRemote();
    publish(remote, 'b1', 'Text');
    const published = {
      version: 1,
      remote: 'content',
      exposes: {
        AboutPage: { routes: [{ path: '/about', layout: 'default', title: 'About', prerendered: true }] },
        TermsPage: { routes: [{ path: '/terms', layout: 'default', title: 'Terms' }] },
        OddPage: { routes: [{ path: '/odd', layout: 'sideways', title: 'Odd' }] },
      },
    };
    const body = JSON.parse(remote.files.get('/mf-manifest.json') ?? '{}') as object;
    remote.files.set('/mf-manifest.json', JSON.stringify({ ...body, routes: published }));
    const sources = sourcesFor(remote);
    await sources.refresh();
    const snapshot = sources.snapshot('content');
    expect([...(snapshot?.prerendered.keys() ?? [])]).toEqual(['AboutPage']);
    expect(remote.requests.filter((path) => path.startsWith('/prerender/'))).toEqual([
      '/prerender/pages.css',
      '/prerender/AboutPage.json',
    ]);
    expect(snapshot?.published?.routes.map(({ module, path }) => [module, path])).toEqual([
      ['AboutPage', '/about'],
      ['TermsPage', '/terms'],
    ]);
    expect(snapshot?.published?.refusals).toEqual([
      expect.objectContaining({ remote: 'content', module: 'OddPage', path: '/odd' }),
    ]);
  });

  it('reads a rollback to a build made before the current one', async () => {
    const remote = await startRemote();
    publish(remote, 'b2', 'Second text', { timestamp: 2_000 });
    const sources = sourcesFor(remote);
    await sources.refresh();
    expect(sources.snapshot('content')?.buildId).toBe('b2');

    publish(remote, 'b1', 'First text', { timestamp: 1_000 });
    await sources.refresh();

    expect(sources.snapshot('content')?.buildId).toBe('b1');
    expect(sources.snapshot('content')?.exposes.get('AboutPage')?.scripts).toEqual([
      `${remote.base}/__federation_expose_AboutPage.b1.js`,
    ]);
    expect(sources.snapshot('content')?.prerendered.get('AboutPage')?.html).toContain('First text');
  });

  it('pinned to the folder a deploy kept a build in, reads that build whatever is current', async () => {
    const remote = await startRemote();
    publish(remote, 'b1', 'First text', { folder: '/builds/b1/' });
    publish(remote, 'b2', 'Second text');
    const sources = sourcesFor(remote, [], 2_000, '/builds/b1/mf-manifest.json');

    await sources.refresh();

    const pinned = sources.snapshot('content');
    expect(pinned?.buildId).toBe('b1');
    expect(pinned?.remoteEntry).toBe(`${remote.base}/builds/b1/remoteEntry.js`);
    expect(pinned?.exposes.get('AboutPage')?.scripts).toEqual([
      `${remote.base}/builds/b1/__federation_expose_AboutPage.b1.js`,
    ]);
    expect(pinned?.prerendered.get('AboutPage')?.html).toContain('First text');
    expect(remote.requests.filter((path) => !path.startsWith('/builds/b1/'))).toEqual([]);
  });

  it('keeps the last good build while the remote is down or half-deployed, and says so once', async () => {
    const remote = await startRemote();
    publish(remote, 'b1', 'Good text');
    const log: string[] = [];
    const sources = sourcesFor(remote, log);
    await sources.refresh();

    // A build whose prerendered pages are missing is not taken.
    publish(remote, 'b2', 'Broken');
    remote.files.set('/prerender/AboutPage.json', '{"html":"<p>no build, no data</p>"}');
    await sources.refresh();
    await sources.refresh();
    expect(sources.snapshot('content')?.buildId).toBe('b1');
    const failures = log.filter((line) => line.includes('cannot read the content remote'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('keeping its last good build');

    // Down altogether.
    remote.server.closeAllConnections();
    await new Promise((resolve) => remote.server.close(resolve));
    await sources.refresh();
    expect(sources.snapshot('content')?.prerendered.get('AboutPage')?.html).toContain('Good text');
  });

  it('refuses a file larger than its kind may be, told by its Content-Length or not, and keeps the last good build', async () => {
    const remote = await startRemote();
    publish(remote, 'b1', 'Good text');
    const log: string[] = [];
    const sources = sourcesFor(remote, log);
    await sources.refresh();
    for (const [build, chunked] of [
      ['b2', false],
      ['b3', true],
    ] as const) {
      publish(remote, build, 'Heavy');
      const padded = JSON.parse(remote.files.get('/mf-manifest.json') ?? '{}') as object;
      remote.files.set('/mf-manifest.json', JSON.stringify({ ...padded, padding: 'x'.repeat(600 * 1024) }));
      remote.chunked = chunked;
      await sources.refresh();
      expect([build, sources.snapshot('content')?.buildId]).toEqual([build, 'b1']);
    }
    expect(log.filter((line) => line.includes('is larger than 524288 bytes'))).toHaveLength(1);
    remote.chunked = false;
    publish(remote, 'b4', 'Light');
    await sources.refresh();
    expect(sources.snapshot('content')?.buildId).toBe('b4');
  });

  it('gives up on a remote that does not answer, within its timeout', async () => {
    const remote = await startRemote();
    remote.hang = true;
    const log: string[] = [];
    const sources = sourcesFor(remote, log, 200);
    const started = Date.now();
    await sources.refresh();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(sources.snapshot('content')).toBeUndefined();
    expect(log.join('\n')).toMatch(/cannot read the content remote .*its pages get no hints for now/);
  });
});

/** Writes the remote's deployment, `builds/latest.json`, as the deploy and canary commands do. */
function deploy(remote: FakeRemote, state: DeploymentState): void {
  remote.files.set('/builds/latest.json', JSON.stringify(state));
}

/** Stable b2 at the root (b1 before it, kept in its copy), canary b3 in its copy only. */
function publishCanary(remote: FakeRemote, percent = 50): void {
  publish(remote, 'b1', 'First text', { folder: '/builds/b1/' });
  publish(remote, 'b2', 'Second text', { folder: '/builds/b2/' });
  publish(remote, 'b3', 'Third text', { folder: '/builds/b3/' });
  publish(remote, 'b2', 'Second text');
  deploy(remote, { id: 'b2', timestamp: 2, previous: 'b1', canary: { id: 'b3', percent, since: 3 } });
}

describe("reading a remote's deployment", () => {
  it('reads the stable build at the root and the canary from its own copy, again only when the canary changes', async () => {
    const remote = await startRemote();
    publishCanary(remote);
    const sources = sourcesFor(remote);
    await sources.refresh();

    const deployment = sources.deployment('content');
    expect(deployment?.state).toEqual({
      id: 'b2',
      timestamp: 2,
      previous: 'b1',
      canary: { id: 'b3', percent: 50, since: 3 },
    });
    expect([...(deployment?.builds.keys() ?? [])]).toEqual(['b2', 'b3']);
    expect(sources.snapshot('content')?.remoteEntry).toBe(`${remote.base}/remoteEntry.js`);
    const canary = deployment?.builds.get('b3');
    expect(canary?.manifestUrl).toBe(`${remote.base}/builds/b3/mf-manifest.json`);
    expect(canary?.remoteEntry).toBe(`${remote.base}/builds/b3/remoteEntry.js`);
    expect(canary?.prerendered.get('AboutPage')?.html).toContain('Third text');
    // Both fallbacks have their copy: b1 for the stable build's visitors, b2 for the canary's.
    expect([...(deployment?.copies ?? [])].sort()).toEqual(['b1', 'b2']);

    // A new percent changes the deployment, and reads nothing but it.
    remote.requests.length = 0;
    deploy(remote, { id: 'b2', timestamp: 2, previous: 'b1', canary: { id: 'b3', percent: 100, since: 3 } });
    await sources.refresh();
    expect(remote.requests).toEqual(['/builds/latest.json']);
    expect(sources.deployment('content')?.state.canary?.percent).toBe(100);
    expect(sources.deployment('content')?.builds.get('b3')).toBe(canary);

    // Aborted: the canary's snapshot is dropped.
    deploy(remote, { id: 'b2', timestamp: 2, previous: 'b1' });
    await sources.refresh();
    expect([...(sources.deployment('content')?.builds.keys() ?? [])]).toEqual(['b2']);
  });

  it('names no fallback whose copy is missing, and serves the stable build to all when the canary cannot be read', async () => {
    const remote = await startRemote();
    publishCanary(remote);
    remote.files.delete('/builds/b1/mf-manifest.json');
    remote.files.delete('/builds/b3/prerender/AboutPage.json');
    const log: string[] = [];
    const sources = sourcesFor(remote, log);
    await sources.refresh();
    await sources.refresh();

    const deployment = sources.deployment('content');
    expect(deployment?.state.canary).toBeUndefined();
    expect(deployment?.state.previous).toBe('b1');
    expect([...(deployment?.builds.keys() ?? [])]).toEqual(['b2']);
    expect([...(deployment?.copies ?? [])]).toEqual([]);
    const said = log.filter((line) => line.includes('canary build b3 cannot be read'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('every visitor gets the stable build b2');
  });

  it("looks at a fallback's copy with a GET where HEAD is refused", async () => {
    const remote = await startRemote();
    remote.refuseHead = true;
    publishCanary(remote);
    const sources = sourcesFor(remote);
    await sources.refresh();
    expect([...(sources.deployment('content')?.copies ?? [])].sort()).toEqual(['b1', 'b2']);
  });

  it('reads a pinned build from its copy when asked, keeps a few, and pins nothing with a build it cannot read', async () => {
    const remote = await startRemote();
    publishCanary(remote);
    publish(remote, 'b4', 'Fourth text', { folder: '/builds/b4/' });
    const log: string[] = [];
    const sources = createRemoteSources({
      remotes: {
        ...everyRemote((name) => `http://127.0.0.1:9/${name}/mf-manifest.json`),
        content: `${remote.base}/mf-manifest.json`,
      },
      timeoutMs: 2_000,
      log: (message) => log.push(message),
      maxPinned: 1,
    });
    await sources.refresh();

    // The builds the deployment serves are its own snapshots.
    expect(await sources.pinned('content', 'b3')).toBe(sources.deployment('content')?.builds.get('b3'));
    remote.requests.length = 0;
    const b4 = await sources.pinned('content', 'b4');
    expect(b4?.remoteEntry).toBe(`${remote.base}/builds/b4/remoteEntry.js`);
    expect(b4?.prerendered.get('AboutPage')?.html).toContain('Fourth text');
    expect(await sources.pinned('content', 'b4')).toBe(b4);
    expect(remote.requests.filter((path) => path === '/builds/b4/mf-manifest.json')).toHaveLength(1);
    // Room for one: b1 replaces b4, which is read again when asked.
    expect((await sources.pinned('content', 'b1'))?.buildId).toBe('b1');
    expect(await sources.pinned('content', 'b4')).not.toBe(b4);

    expect(await sources.pinned('content', 'missing')).toBeUndefined();
    expect(await sources.pinned('content', 'missing')).toBeUndefined();
    const said = log.filter((line) => line.includes("preview of the content remote's build missing pins nothing"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('/builds/missing/mf-manifest.json answered HTTP 404');
  });

  it('waits a bounded time for a pinned build whose remote does not answer', async () => {
    const remote = await startRemote();
    publishCanary(remote);
    const log: string[] = [];
    const sources = sourcesFor(remote, log, 300);
    await sources.refresh();
    remote.hang = true;
    expect(await sources.pinned('content', 'b1')).toBeUndefined();
    expect(log.join('\n')).toContain("the content remote's build b1 was not read within 300 ms for a preview");
  });
});

describe("a remote's render bundle", () => {
  const RENDER = `module.exports.render = () => ({ html: '<h1>Gift</h1>', state: {} });`;
  let pools: RenderPools;

  beforeEach(() => {
    pools = new RenderPools({ size: 1, memoryMb: 64, timeoutMs: 2_000 });
  });

  afterEach(async () => {
    await pools.close();
  });

  /**
   * The gifts remote's build `id` in `folder` (the root, or a build's own copy), its render bundle
   * `code`, its entry and bundle listed in its manifest as `files` give them.
   */
  function publishGifts(
    remote: FakeRemote,
    files = { publicPath: 'auto', entry: 'remoteEntry.js', render: 'prerender/render.js' },
    { id = 'g1', folder = '/', code = RENDER } = {},
  ): void {
    const digest = `sha384-${createHash('sha384').update(code).digest('base64')}`;
    if (folder === '/') remote.files.set('/builds/latest.json', JSON.stringify({ id, timestamp: 1 }));
    remote.files.set(
      `${folder}mf-manifest.json`,
      JSON.stringify({
        metaData: { remoteEntry: { name: files.entry, path: '' }, publicPath: files.publicPath },
        exposes: [],
        integrity: { [files.render]: digest },
      }),
    );
    remote.files.set(`${folder}prerender/pages.css`, '');
    remote.files.set(
      `${folder}prerender/GamePage.json`,
      JSON.stringify({ buildId: id, html: '<p>Game</p>', state: {} }),
    );
    remote.files.set(`${folder}prerender/render.js`, code);
    remote.files.set(`${folder}prerender/render.css`, '.p-gift{}');
  }

  function giftsSources(remote: FakeRemote, log: string[]) {
    return createRemoteSources({
      remotes: {
        ...everyRemote((name) => `http://127.0.0.1:9/${name}/mf-manifest.json`),
        gifts: `${remote.base}/mf-manifest.json`,
      },
      allowedOrigins: [remote.base],
      timeoutMs: 2_000,
      log: (message) => log.push(message),
      renderPools: pools,
    });
  }

  it('is loaded into the render workers from an allowed origin, and refused from any other', async () => {
    const remote = await startRemote();
    const elsewhere = await startRemote();
    elsewhere.files.set('/prerender/render.js', RENDER);
    const log: string[] = [];

    publishGifts(remote);
    const allowed = giftsSources(remote, log);
    await allowed.refresh();
    const renderer = allowed.snapshot('gifts')?.renderer;
    expect(renderer?.css).toBe('.p-gift{}');
    await expect(renderer?.render({ module: 'GiftPage', pathname: '/gifts/a', queries: [] })).resolves.toEqual({
      html: '<h1>Gift</h1>',
      state: {},
    });

    // A public path without its last slash: the entry is at the remote, the bundle elsewhere.
    const port = (base: string) => new URL(base).port;
    publishGifts(remote, {
      publicPath: 'http://127.0.0.1',
      entry: `:${port(remote.base)}/remoteEntry.js`,
      render: `:${port(elsewhere.base)}/prerender/render.js`,
    });
    const refused = giftsSources(remote, log);
    await refused.refresh();
    expect(refused.snapshot('gifts')?.buildId).toBe('g1');
    expect(refused.snapshot('gifts')?.renderer).toBeUndefined();
    expect(elsewhere.requests).toEqual([]);
    expect(log.join('\n')).toContain(`it is at ${elsewhere.base}, which is not an allowed remote origin`);
  });

  it("runs a build pinned by a preview in the render workers, with nothing of the host's process", async () => {
    const remote = await startRemote();
    publishGifts(remote);
    // In the host's process, URL.constructor would be the host's Function, and this its environment.
    const probe = `module.exports.render = () => {
      let reached;
      try { reached = typeof URL.constructor('return process')().env; } catch { reached = 'refused'; }
      return { html: reached, state: {} };
    };`;
    const files = { publicPath: 'auto', entry: 'remoteEntry.js', render: 'prerender/render.js' };
    publishGifts(remote, files, { id: 'staged', folder: '/builds/staged/', code: probe });
    const sources = giftsSources(remote, []);
    await sources.refresh();
    const staged = await sources.pinned('gifts', 'staged');
    await expect(staged?.renderer?.render({ module: 'GiftPage', pathname: '/gifts/a', queries: [] })).resolves.toEqual({
      html: 'refused',
      state: {},
    });
  });
});
