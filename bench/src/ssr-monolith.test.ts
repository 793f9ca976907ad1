import { asMonolithPrerender, monolithManifest } from './ssr-monolith';

const CHUNKS = {
  'gifts/GamePage': ['136.a.js', '381.b.js'],
  'gifts/GiftPage': ['136.a.js', '834.c.js'],
};

describe('monolithManifest', () => {
  it("names each of the remote's pages with the monolith's chunks, their digests and its origin", () => {
    const manifest = monolithManifest('gifts', CHUNKS, 'http://127.0.0.1:5311/', (file) => `sha384-${file}`, [
      '_remotes/gifts/prerender/render.js',
    ]);
    expect(manifest).toEqual({
      name: 'gifts',
      metaData: {
        publicPath: 'http://127.0.0.1:5311/',
        remoteEntry: { name: '136.a.js', path: '', type: 'global' },
      },
      exposes: [
        { name: 'GamePage', assets: { js: { sync: ['136.a.js', '381.b.js'], async: [] } } },
        { name: 'GiftPage', assets: { js: { sync: ['136.a.js', '834.c.js'], async: [] } } },
      ],
      shared: [],
      integrity: {
        '136.a.js': 'sha384-136.a.js',
        '381.b.js': 'sha384-381.b.js',
        '834.c.js': 'sha384-834.c.js',
        '_remotes/gifts/prerender/render.js': 'sha384-_remotes/gifts/prerender/render.js',
      },
    });
  });

  it('gives no manifest for a remote none of whose pages the monolith built', () => {
    expect(monolithManifest('redeem', CHUNKS, 'http://127.0.0.1:5311/', () => 'sha384-x')).toBeUndefined();
  });
});

describe('asMonolithPrerender', () => {
  it("keeps the prerendered page and gives it the monolith's build id", () => {
    expect(asMonolithPrerender({ buildId: 'remote', html: '<h1>Hi</h1>', state: { queries: [] } }, 'mono')).toEqual({
      buildId: 'mono',
      html: '<h1>Hi</h1>',
      state: { queries: [] },
    });
  });

  it('refuses what is not a prerendered page', () => {
    expect(() => asMonolithPrerender(null, 'mono')).toThrow('not an object');
  });
});
