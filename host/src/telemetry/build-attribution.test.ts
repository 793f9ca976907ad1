import { loadingPlugin } from '../federation/loading-plugin';
import { createBuildAttribution } from './build-attribution';
import { REMOTE_NAMES } from 'shared/remotes';

const ORIGIN = 'https://gifts.example.com';
const INTEGRITY = `sha384-${'E'.repeat(64)}`;

const manifest = (buildId: string | undefined, extra: Record<string, unknown> = {}) => ({
  name: 'gifts',
  ...(buildId ? { buildId } : {}),
  metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
  exposes: [],
  shared: [],
  integrity: { 'remoteEntry.js': INTEGRITY, '7.a1b2.js': INTEGRITY },
  ...extra,
});

/** The page's loading plugin, reading manifests the way the federation runtime has it fetch them. */
function pageWith(builds: ReturnType<typeof createBuildAttribution>) {
  const plugin = loadingPlugin({ timeoutMs: 1_000, allowedOrigins: [ORIGIN], requireIntegrity: true, builds });
  const fetchHook = plugin.fetch as (
    url: string,
    init: RequestInit,
    remoteInfo?: { name: string },
  ) => Promise<Response>;
  return (url: string, body: unknown, remoteName?: string) => {
    jest.spyOn(window, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status: 200 }));
    return fetchHook(url, {}, remoteName === undefined ? undefined : { name: remoteName });
  };
}

afterEach(() => jest.restoreAllMocks());

describe('the builds the page runs', () => {
  it("are each manifest's, by remote and by its scripts' public path, older builds kept", async () => {
    const builds = createBuildAttribution('host-b7', REMOTE_NAMES);
    const read = pageWith(builds);
    await read(`${ORIGIN}/builds/g-40/mf-manifest.json`, manifest('g-40'), 'gifts');
    await read(`${ORIGIN}/mf-manifest.json`, manifest('g-41'), 'gifts');

    expect(builds.buildOf('gifts')).toBe('g-41');
    expect(builds.ownerOf(`${ORIGIN}/7.a1b2.js`)).toEqual({ remote: 'gifts', build: 'g-41' });
    // A page still running the pinned build's scripts: the longest public path is theirs.
    expect(builds.ownerOf(`${ORIGIN}/builds/g-40/7.a1b2.js`)).toEqual({ remote: 'gifts', build: 'g-40' });
    expect(builds.integrityOf(`${ORIGIN}/builds/g-40/7.a1b2.js`)).toBe(INTEGRITY);
  });

  it("name the host's own build for the host, and none for a remote not read yet or a script of no remote", () => {
    const builds = createBuildAttribution('host-b7', REMOTE_NAMES);
    expect(builds.buildOf('host')).toBe('host-b7');
    expect(builds.buildOf('content')).toBe('unknown');
    expect(builds.ownerOf('https://cdn.example.com/lib.js')).toBeUndefined();
  });

  it("are kept for a configured remote the host's build never saw", async () => {
    const builds = createBuildAttribution('host-b7', [...REMOTE_NAMES, 'news']);
    await pageWith(builds)(`${ORIGIN}/news/mf-manifest.json`, manifest('n-1'), 'news');
    expect(builds.buildOf('news')).toBe('n-1');
    expect(builds.ownerOf(`${ORIGIN}/news/remoteEntry.js`)).toEqual({ remote: 'news', build: 'n-1' });
  });

  it('take a build without an id as unknown', async () => {
    const builds = createBuildAttribution('host-b7', REMOTE_NAMES);
    await pageWith(builds)(`${ORIGIN}/mf-manifest.json`, manifest(undefined), 'gifts');
    expect(builds.buildOf('gifts')).toBe('unknown');
    expect(builds.ownerOf(`${ORIGIN}/remoteEntry.js`)).toEqual({ remote: 'gifts', build: 'unknown' });
  });

  it('ignore a name that is no configured remote, none, and a manifest the host refused', async () => {
    const builds = createBuildAttribution('host-b7', REMOTE_NAMES);
    const read = pageWith(builds);
    await read(`${ORIGIN}/mf-manifest.json`, manifest('x-1'), 'intruder');
    await read(`${ORIGIN}/other/mf-manifest.json`, manifest('x-2'));
    expect(builds.ownerOf(`${ORIGIN}/remoteEntry.js`)).toBeUndefined();
    expect(builds.ownerOf(`${ORIGIN}/other/remoteEntry.js`)).toBeUndefined();
    const elsewhere = manifest('g-9', {
      metaData: {
        remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
        publicPath: 'https://evil.example/',
      },
    });
    await expect(read(`${ORIGIN}/mf-manifest.json`, elsewhere, 'gifts')).rejects.toThrow('Refused');
    expect(builds.buildOf('gifts')).toBe('unknown');
  });
});
