/** @jest-environment node */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import webpack, { type WebpackPluginInstance } from 'webpack';
import { ConsumeSharedCachePlugin, TrimFederationRuntimePlugin } from './federation-plugins';

let dir: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'federation-plugins-'));
  write('src/index.js', 'import("./bootstrap");\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Two shared packages of our own, the one re-exporting the other. */
function smallPackages(): void {
  const pkg = (name: string) => JSON.stringify({ name, version: '1.0.0', main: 'index.js', sideEffects: false });
  write('node_modules/lib-inner/package.json', pkg('lib-inner'));
  write('node_modules/lib-inner/index.js', 'export const inner = "inner";\n');
  write('node_modules/lib-outer/package.json', pkg('lib-outer'));
  write('node_modules/lib-outer/index.js', 'export * from "lib-inner";\nexport const outer = "outer";\n');
  write('src/bootstrap.js', 'import { inner, outer } from "lib-outer";\nconsole.log(inner, outer);\n');
}

/** The installed react-router-dom, which re-exports all of react-router, and its peers. */
function routerPackages(): void {
  mkdirSync(join(dir, 'node_modules'));
  for (const name of ['react', 'react-dom', 'react-router', 'react-router-dom']) {
    symlinkSync(dirname(require.resolve(`${name}/package.json`)), join(dir, 'node_modules', name));
  }
  write('src/bootstrap.js', 'import { BrowserRouter } from "react-router-dom";\nconsole.log(BrowserRouter);\n');
}

/** A production build with a persistent cache in the folder; resolves with every file it wrote. */
function build(shared: string[], plugins: WebpackPluginInstance[]): Promise<Record<string, string>> {
  const compiler = webpack({
    mode: 'production',
    context: dir,
    entry: './src/index.js',
    devtool: false,
    output: { path: join(dir, 'dist'), clean: true },
    optimization: { minimize: false },
    cache: { type: 'filesystem', cacheDirectory: join(dir, '.cache') },
    infrastructureLogging: { level: 'error' },
    plugins: [
      new ModuleFederationPlugin({
        name: 'app',
        dts: false,
        shared: Object.fromEntries(shared.map((name) => [name, { singleton: true }])),
      }),
      ...plugins,
    ],
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => {
        if (error || !stats || stats.hasErrors()) return reject(error ?? new Error(stats?.toString('errors-only')));
        const out = join(dir, 'dist');
        resolve(Object.fromEntries(readdirSync(out).map((file) => [file, readFileSync(join(out, file), 'utf8')])));
      });
    });
  });
}

const ROUTER = ['react', 'react-dom', 'react-router', 'react-router-dom'];

/** Does the file holding react-router-dom pass react-router's exports on? */
function reexportsRouter(files: Record<string, string>): boolean {
  const file = Object.values(files).find((text) => text.includes('react-router-dom v'));
  return file !== undefined && file.includes('harmony reexport (unknown)');
}

describe('ConsumeSharedCachePlugin', () => {
  it('builds from a warm cache what it builds cold: `export *` from a shared package still re-exports', async () => {
    routerPackages();
    const cold = await build(ROUTER, [new ConsumeSharedCachePlugin()]);
    const warm = await build(ROUTER, [new ConsumeSharedCachePlugin()]);
    expect(reexportsRouter(cold)).toBe(true);
    expect(warm).toEqual(cold);
  }, 60_000);

  it('is needed: without it the warm build of react-router-dom re-exports nothing of react-router', async () => {
    routerPackages();
    const cold = await build(ROUTER, []);
    const warm = await build(ROUTER, []);
    expect(reexportsRouter(cold)).toBe(true);
    expect(reexportsRouter(warm)).toBe(false);
  }, 60_000);
});

describe('TrimFederationRuntimePlugin', () => {
  it('takes the unused federation SDK and the second sharing runtime out of the entry chunk', async () => {
    smallPackages();
    const plain = await build(['lib-inner', 'lib-outer'], []);
    const trimmed = await build(['lib-inner', 'lib-outer'], [new TrimFederationRuntimePlugin()]);
    const entry = (files: Record<string, string>) =>
      Object.entries(files).find(([name]) => name === 'main.js')?.[1] ?? '';
    // A helper of @module-federation/sdk for configuration files, which nothing in the page calls.
    expect(entry(plain)).toContain('createModuleFederationConfig');
    expect(entry(trimmed)).not.toContain('createModuleFederationConfig');
    // webpack's own share-scope initialisation beside the federation's, which replaces it.
    const sharingRuntimes = (text: string) => text.match(/\/\* webpack\/runtime\/sharing \*\//g)?.length;
    expect(sharingRuntimes(entry(plain))).toBe(2);
    expect(sharingRuntimes(entry(trimmed))).toBe(1);
    expect(entry(trimmed).length).toBeLessThan(entry(plain).length);
  }, 60_000);
});
