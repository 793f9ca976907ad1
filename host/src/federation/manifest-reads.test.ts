import { createManifestReads } from './manifest-reads';
import { loadingPlugin } from './loading-plugin';

const ORIGIN = 'https://news.example.com';
const MANIFEST_URL = `${ORIGIN}/mf-manifest.json`;
const INTEGRITY = `sha384-${'E'.repeat(64)}`;
const MANIFEST = {
  name: 'news',
  metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
  exposes: [],
  shared: [],
  integrity: { 'remoteEntry.js': INTEGRITY },
};

afterEach(() => jest.restoreAllMocks());

describe('the manifests the page read to compose its routes', () => {
  it("are the federation runtime's first download of each, and only the first", async () => {
    const network = jest.fn(async () => Response.json(MANIFEST));
    jest.spyOn(window, 'fetch').mockImplementation(network);
    const manifests = createManifestReads({ timeoutMs: 1_000 });
    const plugin = loadingPlugin({
      timeoutMs: 1_000,
      allowedOrigins: [ORIGIN],
      requireIntegrity: true,
      manifestReads: manifests,
    });
    const runtimeFetch = plugin.fetch as (
      url: string,
      init: RequestInit,
      remote: { name: string },
    ) => Promise<Response>;

    expect(await manifests.read(MANIFEST_URL)).toEqual(MANIFEST);
    expect(await (await runtimeFetch(MANIFEST_URL, {}, { name: 'news' })).json()).toEqual(MANIFEST);
    expect(network).toHaveBeenCalledTimes(1);
    // A later download (the remote reset after a failure) asks the network again.
    await runtimeFetch(MANIFEST_URL, {}, { name: 'news' });
    expect(network).toHaveBeenCalledTimes(2);
  });

  it('are found however the configuration spells the host name', async () => {
    const network = jest.fn(async () => Response.json(MANIFEST));
    const manifests = createManifestReads({ timeoutMs: 1_000, fetch: network });
    await manifests.read('https://News.Example.com/mf-manifest.json');
    expect(manifests.take(MANIFEST_URL)?.text).toBe(JSON.stringify(MANIFEST));
  });

  it('give nothing for a manifest that cannot be read, and keep no answer of it', async () => {
    const log = jest.fn();
    const manifests = createManifestReads({
      timeoutMs: 1_000,
      fetch: async () => new Response('gone', { status: 404 }),
      log,
    });
    expect(await manifests.read(MANIFEST_URL)).toBeUndefined();
    expect(log).toHaveBeenCalledWith(expect.stringContaining(MANIFEST_URL), expect.any(Error));
    expect(manifests.take(MANIFEST_URL)).toBeUndefined();
  });
});
