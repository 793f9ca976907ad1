/** @jest-environment node */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import webpack, { type WebpackPluginInstance } from 'webpack';
import type { BuildInfo, BuildMeta } from 'shared/build-info';
import { manifestBuildId, manifestIntegrity, SHARED_FALLBACKS_FIELD } from 'shared/remote-manifest';
import { BuildInfoPlugin } from './build-info-plugin';
import { RemoteIntegrityPlugin } from './integrity-plugin';
import { SharedFallbacksPlugin } from './shared-fallbacks';

// A webpack build each, minified: seconds on a busy two-core machine.
jest.setTimeout(60_000);

const INFO = { id: 'b-2027.01.15_1', timestamp: 1_800_000_000_000, app: 'gifts', version: '1.0.0', dir: 'builds' };

let dir: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'build-info-plugin-'));
  write('src/index.js', 'import("./page");\n');
  write('src/page.js', 'export default function page() { return "a page"; }\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function filesIn(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (current: string) => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) visit(path);
      else files[relative(folder, path)] = readFileSync(path, 'utf8');
    }
  };
  visit(folder);
  return files;
}

/** A production build with the plugins a remote's build has (webpack.config.base.ts), in its order. */
async function build(plugins: WebpackPluginInstance[], federated = true): Promise<Record<string, string>> {
  const compiler = webpack({
    mode: 'production',
    context: dir,
    entry: { main: './src/index.js' },
    devtool: false,
    output: {
      path: join(dir, 'dist'),
      filename: '[name].[fullhash:8].js',
      chunkFilename: '[name].[contenthash:16].js',
      publicPath: 'auto',
      crossOriginLoading: 'anonymous',
      clean: true,
    },
    infrastructureLogging: { level: 'error' },
    plugins: [
      ...(federated
        ? [
            new ModuleFederationPlugin({
              name: 'gifts',
              filename: 'remoteEntry.js',
              exposes: { './Page': './src/page.js' },
              manifest: true,
              dts: false,
            }),
          ]
        : []),
      ...plugins,
    ],
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => {
        if (error || !stats || stats.hasErrors()) return reject(error ?? new Error(stats?.toString('errors-only')));
        resolve(filesIn(join(dir, 'dist')));
      });
    });
  });
}

describe('BuildInfoPlugin', () => {
  it('names the build in its manifest, keeping what the integrity and shared-fallback plugins wrote there', async () => {
    const files = await build([new SharedFallbacksPlugin(), new RemoteIntegrityPlugin(), new BuildInfoPlugin(INFO)]);
    const manifest = JSON.parse(files['mf-manifest.json'] ?? 'null') as Record<string, unknown>;
    expect(manifest.buildId).toBe(INFO.id);
    expect(manifestBuildId(manifest)).toBe(INFO.id);
    expect(manifestIntegrity(manifest).get('remoteEntry.js')).toMatch(/^sha384-/);
    expect(manifest[SHARED_FALLBACKS_FIELD]).toBeDefined();
    expect(manifest.metaData).toMatchObject({ name: 'gifts', publicPath: 'auto' });
  });

  it('publishes the build as latest, and its meta with every file, the manifest among them', async () => {
    const files = await build([new RemoteIntegrityPlugin(), new BuildInfoPlugin(INFO)]);
    expect(JSON.parse(files[join('builds', 'latest.json')] ?? 'null')).toEqual({
      id: INFO.id,
      timestamp: INFO.timestamp,
    } satisfies BuildInfo);
    const meta = JSON.parse(files[join('builds', 'meta', `${INFO.id}.json`)] ?? 'null') as BuildMeta;
    expect(meta).toMatchObject({ id: INFO.id, app: 'gifts', version: '1.0.0' });
    expect(meta.files).toContain('mf-manifest.json');
  });

  it('builds without a federation manifest as before', async () => {
    const files = await build([new BuildInfoPlugin(INFO)], false);
    expect(files['mf-manifest.json']).toBeUndefined();
    expect(files[join('builds', 'latest.json')]).toBeDefined();
  });
});
