/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inputsHash, partInputs, readStamp, removeStamp, staleReason, writeStamp } from './build-stamp';

const MARKERS = ['dist/_app/builds/latest.json', 'dist-server/main.js'];

let root: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A repository with one part, `host`, and `shared`, as the build leaves it: built and stamped. */
function builtRepository(): void {
  write('package.json', '{}');
  write('package-lock.json', '{"lockfileVersion":3}');
  write('tsconfig.base.json', '{}');
  write('webpack.config.base.ts', 'export {};');
  write('scripts/build-server.ts', 'export {};');
  write('shared/src/ids.ts', 'export const ID = 1;');
  write('shared/src/ids.test.ts', 'test("x", () => undefined);');
  write('server/src/serve.ts', 'export const serve = 1;');
  write('build/prerender-plugin.ts', 'export const plugin = 1;');
  write('host/package.json', '{"name":"host"}');
  write('host/webpack.config.ts', 'export {};');
  write('host/src/app.tsx', 'export const App = 1;');
  write('host/src/app.test.tsx', 'test("x", () => undefined);');
  write('host/node_modules/.cache/webpack/0.pack', 'cache');
  write('host/dist/_app/builds/latest.json', '{"id":"a"}');
  write('host/dist/main.js', 'main');
  write('host/dist-server/main.js', 'server');
  writeStamp(root, 'host', inputsHash(root, 'host'), MARKERS);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-stamp-test-'));
  builtRepository();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('partInputs', () => {
  it("lists the part's, shared's, server's and build's sources and the root's build files, no tests, builds or caches", () => {
    expect(partInputs(root, 'host')).toEqual([
      'build/prerender-plugin.ts',
      'host/package.json',
      'host/src/app.tsx',
      'host/webpack.config.ts',
      'package-lock.json',
      'package.json',
      'scripts/build-server.ts',
      'server/src/serve.ts',
      'shared/src/ids.ts',
      'tsconfig.base.json',
      'webpack.config.base.ts',
    ]);
  });
});

describe('staleReason', () => {
  it('is undefined for a part built from the sources as they are', () => {
    expect(staleReason(root, 'host', MARKERS)).toBeUndefined();
  });

  it.each([
    ['a source of the part', 'host/src/app.tsx'],
    ['a source of shared', 'shared/src/ids.ts'],
    ["the servers' common code", 'server/src/serve.ts'],
    ["a plugin of every part's webpack build", 'build/prerender-plugin.ts'],
    ["the part's webpack configuration", 'host/webpack.config.ts'],
    ['the common webpack configuration', 'webpack.config.base.ts'],
    ['the installed packages', 'package-lock.json'],
  ])('names the sources when %s changed since the build', (_what, file) => {
    write(file, 'changed');
    expect(staleReason(root, 'host', MARKERS)).toBe('sources changed since its build');
  });

  it('notices a source added, and one removed', () => {
    write('host/src/new-page.tsx', 'export {};');
    expect(staleReason(root, 'host', MARKERS)).toBe('sources changed since its build');
    rmSync(join(root, 'host/src/new-page.tsx'));
    expect(staleReason(root, 'host', MARKERS)).toBeUndefined();
    rmSync(join(root, 'host/src/app.tsx'));
    expect(staleReason(root, 'host', MARKERS)).toBe('sources changed since its build');
  });

  it('ignores tests, caches and what the build writes besides its markers', () => {
    write('host/src/app.test.tsx', 'changed');
    write('shared/src/ids.test.ts', 'changed');
    write('host/node_modules/.cache/webpack/1.pack', 'more cache');
    write('host/dist/main.js', 'another main');
    expect(staleReason(root, 'host', MARKERS)).toBeUndefined();
  });

  it('wants a build when a marker is missing', () => {
    rmSync(join(root, 'host/dist-server'), { recursive: true });
    expect(staleReason(root, 'host', MARKERS)).toBe('not built (no dist-server/main.js)');
  });

  it('wants a build when there is no stamp: built before stamps, or its build failed', () => {
    removeStamp(root, 'host');
    expect(readStamp(root, 'host')).toBeUndefined();
    expect(staleReason(root, 'host', MARKERS)).toMatch(/^no build stamp/);
  });

  it('wants a build when a marker was rewritten since the stamp (a build by another script)', () => {
    write('host/dist/_app/builds/latest.json', '{"id":"b"}');
    expect(staleReason(root, 'host', MARKERS)).toBe('dist/_app/builds/latest.json changed since its build');
  });

  it('wants a build when a marker only has another time (the same size, another build)', () => {
    const marker = join(root, 'host/dist-server/main.js');
    utimesSync(marker, new Date(), new Date(Date.now() + 5000));
    expect(staleReason(root, 'host', MARKERS)).toBe('dist-server/main.js changed since its build');
  });

  it('takes an unreadable stamp for none', () => {
    write('host/node_modules/.cache/build-stamp.json', '{ not json');
    expect(staleReason(root, 'host', MARKERS)).toMatch(/^no build stamp/);
  });
});

describe('writeStamp', () => {
  it('refuses a build that left a marker out', () => {
    rmSync(join(root, 'host/dist-server/main.js'));
    expect(() => writeStamp(root, 'host', 'hash', MARKERS)).toThrow("host's build left no dist-server/main.js");
  });
});
