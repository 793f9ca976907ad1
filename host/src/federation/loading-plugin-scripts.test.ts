import { loadingPlugin, type LoadingPluginOptions } from './loading-plugin';

const ORIGIN = 'https://gifts.example.com';
const MANIFEST_URL = `${ORIGIN}/v3/mf-manifest.json`;
const ENTRY_INTEGRITY = `sha384-${'E'.repeat(64)}`;
const CHUNK_INTEGRITY = `sha384-${'C'.repeat(64)}`;

interface HookArgs {
  url: string;
  attrs?: Record<string, unknown>;
}

function setUp(options: Partial<LoadingPluginOptions> = {}) {
  const plugin = loadingPlugin({ timeoutMs: 4_000, allowedOrigins: [ORIGIN], requireIntegrity: true, ...options });
  return {
    readManifest: async (body: unknown = MANIFEST) => {
      jest
        .spyOn(window, 'fetch')
        .mockImplementation(() => Promise.resolve(new Response(JSON.stringify(body), { status: 200 })));
      await (plugin.fetch as (url: string, init: RequestInit) => Promise<Response>)(MANIFEST_URL, {});
    },
    createScript: plugin.createScript as (args: HookArgs) => { script: HTMLScriptElement; timeout: number },
    createLink: plugin.createLink as (args: HookArgs) => { link: HTMLLinkElement; timeout: number },
  };
}

const MANIFEST = {
  metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
  exposes: [],
  shared: [],
  integrity: { 'remoteEntry.js': ENTRY_INTEGRITY, '__federation_expose_GamePage.1a.js': CHUNK_INTEGRITY },
};

afterEach(() => jest.restoreAllMocks());

describe('loading plugin: the scripts the federation runtime adds', () => {
  it('loads the remote entry with the integrity its manifest gives, with CORS, bounded by the timeout', async () => {
    const hooks = setUp();
    await hooks.readManifest();
    const { script, timeout } = hooks.createScript({
      url: `${ORIGIN}/v3/remoteEntry.js`,
      attrs: { fetchpriority: 'high' },
    });
    expect(script.src).toBe(`${ORIGIN}/v3/remoteEntry.js`);
    expect(script.getAttribute('integrity')).toBe(ENTRY_INTEGRITY);
    expect(script.getAttribute('crossorigin')).toBe('anonymous');
    expect(script.getAttribute('fetchpriority')).toBe('high');
    expect(timeout).toBe(4_000);
  });

  it('loads a chunk the runtime fetches ahead with its own integrity', async () => {
    const hooks = setUp();
    await hooks.readManifest();
    const { script } = hooks.createScript({ url: `${ORIGIN}/v3/__federation_expose_GamePage.1a.js` });
    expect(script.getAttribute('integrity')).toBe(CHUNK_INTEGRITY);
  });

  it('refuses a script no manifest gives the integrity of, and one at an origin remotes may not come from', async () => {
    const hooks = setUp();
    await hooks.readManifest();
    expect(() => hooks.createScript({ url: `${ORIGIN}/v3/unknown.js` })).toThrow(
      `Refused ${ORIGIN}/v3/unknown.js: no manifest read gives its integrity`,
    );
    expect(() => hooks.createScript({ url: 'https://evil.example/remoteEntry.js' })).toThrow(
      'Refused https://evil.example/remoteEntry.js: https://evil.example is not an allowed remote origin',
    );
  });

  it('preloads a chunk as the script will load it, so the browser uses the preload', async () => {
    const hooks = setUp();
    await hooks.readManifest();
    const { link } = hooks.createLink({
      url: `${ORIGIN}/v3/__federation_expose_GamePage.1a.js`,
      attrs: { rel: 'preload', as: 'script' },
    });
    expect(link.rel).toBe('preload');
    expect(link.getAttribute('as')).toBe('script');
    expect(link.getAttribute('integrity')).toBe(CHUNK_INTEGRITY);
    expect(link.getAttribute('crossorigin')).toBe('anonymous');
    expect(() => hooks.createLink({ url: `${ORIGIN}/v3/unknown.js`, attrs: { rel: 'preload', as: 'script' } })).toThrow(
      'no manifest read gives its integrity',
    );
  });

  it('in development (remotes under webpack serve record no integrity) loads scripts without, from allowed origins only', async () => {
    const hooks = setUp({ requireIntegrity: false });
    await hooks.readManifest({ ...MANIFEST, integrity: undefined });
    const { script } = hooks.createScript({ url: `${ORIGIN}/v3/remoteEntry.js` });
    expect(script.hasAttribute('integrity')).toBe(false);
    expect(script.getAttribute('crossorigin')).toBe('anonymous');
    expect(() => hooks.createScript({ url: 'https://evil.example/remoteEntry.js' })).toThrow(
      'is not an allowed remote origin',
    );
  });
});
