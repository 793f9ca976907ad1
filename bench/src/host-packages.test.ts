import { fileStem, largestShares, packageOf, packagesOf, type WebpackStats } from './host-packages';

describe('fileStem', () => {
  it('drops the content hash and the extension', () => {
    expect(fileStem('main.3ca97b4b.js')).toBe('main');
    expect(fileStem('/264.f4e573c38d48a57c.js')).toBe('264');
    expect(fileStem('web-vitals.37f5e67380d5d80b.js')).toBe('web-vitals');
  });
});

describe('packageOf', () => {
  it('names the innermost npm package, scoped or not', () => {
    expect(packageOf('../node_modules/react-dom/cjs/react-dom-client.production.js', 'host')).toBe('react-dom');
    expect(packageOf('../node_modules/@tanstack/query-core/build/modern/queryCache.js', 'host')).toBe(
      '@tanstack/query-core',
    );
    expect(packageOf('../node_modules/a/node_modules/b/index.js', 'host')).toBe('b');
  });

  it('reads the file behind loaders and module federation wrappers', () => {
    expect(packageOf('../node_modules/css-loader/dist/cjs.js!./src/third-party/analytics/banner.css', 'host')).toBe(
      'host/src/third-party',
    );
    expect(packageOf('provide shared module (default) react@19.3.1 = ../node_modules/react/index.js', 'host')).toBe(
      'react',
    );
    expect(
      packageOf(
        'consume shared module (default) shared/page-data@>=..1...0 (singleton) (fallback: ../shared/src/page-data.ts) (eager)',
        'host',
      ),
    ).toBe('shared/src/page-data.ts');
  });

  it("names a workspace's folder under src, and the browser folder's one more level down", () => {
    expect(packageOf('./src/navigation/navigation-progress.tsx', 'host')).toBe('host/src/navigation');
    expect(packageOf('./src/index.ts + 81 modules', 'host')).toBe('host/src/index.ts');
    expect(packageOf('../shared/src/browser/api/redeem-query.ts', 'host')).toBe('shared/src/browser/api');
    expect(packageOf('../shared/src/ids.ts', 'host')).toBe('shared/src/ids.ts');
    expect(packageOf('webpack/runtime/make namespace object', 'host')).toBe('webpack runtime');
  });
});

describe('packagesOf', () => {
  const stats: WebpackStats = {
    chunks: [
      { id: 792, files: ['main.aaaaaaaa.js'] },
      { id: 264, files: ['264.bbbbbbbbbbbbbbbb.js'] },
    ],
    modules: [
      {
        name: './src/index.ts + 2 modules',
        size: 300,
        chunks: [792],
        modules: [
          { name: './src/index.ts', size: 100 },
          { name: '../node_modules/react-dom/index.js', size: 200 },
        ],
      },
      { name: '../node_modules/react/index.js', size: 100, chunks: [792] },
      { name: '../node_modules/zod/index.js', size: 50, chunks: [264] },
    ],
  };

  it("shares each served script's gzip bytes among its packages by their size in the stats", () => {
    const shares = packagesOf(
      stats,
      [
        { name: 'main.cccccccc.js', bytes: 4000 },
        { name: '264.bbbbbbbbbbbbbbbb.js', bytes: 700 },
      ],
      'host',
    );
    expect(shares).toEqual([
      { name: 'react-dom', bytes: 2000 },
      { name: 'host/src/index.ts', bytes: 1000 },
      { name: 'react', bytes: 1000 },
      { name: 'zod', bytes: 700 },
    ]);
  });

  it('counts a script the stats do not know apart, rather than dropping its bytes', () => {
    expect(packagesOf(stats, [{ name: 'other.dddddddd.js', bytes: 900 }], 'host')).toEqual([
      { name: '(not in the stats)', bytes: 900 },
    ]);
  });
});

describe('largestShares', () => {
  const shares = [
    { name: 'a', bytes: 50 },
    { name: 'b', bytes: 30 },
    { name: 'c', bytes: 15 },
    { name: 'd', bytes: 5 },
  ];

  it('keeps the largest and adds the rest up as one row', () => {
    expect(largestShares(shares, 2)).toEqual([
      { name: 'a', bytes: 50 },
      { name: 'b', bytes: 30 },
      { name: '2 other packages', bytes: 20 },
    ]);
  });

  it('keeps them all when no more than one would be left over', () => {
    expect(largestShares(shares, 3)).toEqual(shares);
  });
});
