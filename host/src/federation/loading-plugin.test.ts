/** @jest-environment node */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadingPlugin, type LoadingPluginOptions } from './loading-plugin';

const ENTRY_INTEGRITY = `sha384-${'E'.repeat(64)}`;

let server: Server;
let base: string;
/** Manifests the server answers, by path. */
const manifests = new Map<string, unknown>();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return; // accepts, never answers
    const manifest = manifests.get(req.url ?? '');
    if (req.url === '/missing' || (req.url !== '/ok' && manifest === undefined)) {
      res.statusCode = 404;
      res.end('nope');
      return;
    }
    res.setHeader('Content-Type', 'application/json');
    res.end(req.url === '/ok' ? '{"ok":true}' : JSON.stringify(manifest));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A bound no answering server on a busy machine meets; the never-answering one is given a short one. */
function pluginWith(options: Partial<LoadingPluginOptions> = {}) {
  return loadingPlugin({ timeoutMs: 30_000, allowedOrigins: [base], requireIntegrity: true, ...options });
}

const fetchHook = (url: string, plugin = pluginWith()) =>
  (plugin.fetch as (url: string, init: RequestInit) => Promise<Response>)(url, {});

function manifest(metaData: Record<string, unknown>, integrity: Record<string, string> = {}): unknown {
  return {
    metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto', ...metaData },
    exposes: [],
    shared: [],
    integrity,
  };
}

describe('loading plugin: downloads', () => {
  it('passes a good answer through', async () => {
    await expect((await fetchHook(`${base}/ok`)).json()).resolves.toEqual({ ok: true });
  });

  it('fails a manifest that answers an error status, naming it', async () => {
    await expect(fetchHook(`${base}/missing`)).rejects.toThrow(`${base}/missing answered HTTP 404`);
  });

  // Without the timeout this would hang until jest's own test timeout fails it.
  it('gives up on a server that never answers', async () => {
    await expect(fetchHook(`${base}/hang`, pluginWith({ timeoutMs: 300 }))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });
});

describe('loading plugin: manifests', () => {
  it('passes a manifest whose entry is at an allowed origin and has its integrity, unchanged', async () => {
    const good = manifest({}, { 'remoteEntry.js': ENTRY_INTEGRITY });
    manifests.set('/good/mf-manifest.json', good);
    await expect((await fetchHook(`${base}/good/mf-manifest.json`)).json()).resolves.toEqual(good);
  });

  it('never asks a server outside the allowed origins', async () => {
    await expect(fetchHook('https://evil.example/mf-manifest.json')).rejects.toThrow(
      'Refused https://evil.example/mf-manifest.json: https://evil.example is not an allowed remote origin',
    );
  });

  it('refuses a manifest that points its scripts at another origin', async () => {
    manifests.set('/moved/mf-manifest.json', manifest({ publicPath: 'https://cdn.evil.example/gifts/' }));
    await expect(fetchHook(`${base}/moved/mf-manifest.json`)).rejects.toThrow(
      'Refused https://cdn.evil.example/gifts/remoteEntry.js: https://cdn.evil.example is not an allowed remote origin',
    );
  });

  it('refuses a manifest whose public path is code the runtime would run', async () => {
    const withFunction = manifest({}, { 'remoteEntry.js': ENTRY_INTEGRITY }) as { metaData: Record<string, unknown> };
    delete withFunction.metaData.publicPath;
    withFunction.metaData.getPublicPath = 'return "https://evil.example/"';
    manifests.set('/function/mf-manifest.json', withFunction);
    await expect(fetchHook(`${base}/function/mf-manifest.json`)).rejects.toThrow(
      'its publicPath is neither "auto" nor an absolute URL',
    );
  });

  it('refuses an entry that is an ES module, which no integrity can be given to', async () => {
    manifests.set(
      '/esm/mf-manifest.json',
      manifest(
        { remoteEntry: { name: 'remoteEntry.mjs', path: '', type: 'module' } },
        { 'remoteEntry.mjs': ENTRY_INTEGRITY },
      ),
    );
    await expect(fetchHook(`${base}/esm/mf-manifest.json`)).rejects.toThrow(
      'its type "module" is not a script a browser checks the integrity of',
    );
  });

  it('refuses a manifest without the entry’s integrity (a build from before it was recorded), unless integrity is not required', async () => {
    manifests.set('/old/mf-manifest.json', manifest({}));
    await expect(fetchHook(`${base}/old/mf-manifest.json`)).rejects.toThrow(
      `Refused ${base}/old/remoteEntry.js: ${base}/old/mf-manifest.json gives no integrity for it`,
    );
    const development = pluginWith({ requireIntegrity: false });
    await expect(fetchHook(`${base}/old/mf-manifest.json`, development)).resolves.toMatchObject({ status: 200 });
  });
});
