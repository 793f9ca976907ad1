/** @jest-environment node */
import { join } from 'node:path';
import type { WebpackPluginInstance } from 'webpack';
import type { BuildInfo, BuildMeta } from 'shared/build-info';
import { manifestBuildId, manifestIntegrity, SHARED_FALLBACKS_FIELD } from 'shared/remote-manifest';
import { BuildInfoPlugin } from './build-info-plugin';
import { RemoteIntegrityPlugin } from './integrity-plugin';
import { SharedFallbacksPlugin } from './shared-fallbacks';
import { remoteProject, type RemoteProject } from './testing/remote-build';

const INFO = { id: 'b-2027.01.15_1', timestamp: 1_800_000_000_000, app: 'gifts', version: '1.0.0', dir: 'builds' };
const SOURCES = {
  'src/index.js': 'import("./page");\n',
  'src/page.js': 'export default function page() { return "a page"; }\n',
};

/**
 * A production build with the plugins a remote's build has (webpack.config.base.ts), in its order:
 * each file's text.
 */
async function build(plugins: WebpackPluginInstance[], federated = true): Promise<Record<string, string>> {
  const project: RemoteProject = remoteProject('build-info-plugin-', SOURCES);
  try {
    const files = await project.build(plugins, { federated });
    return Object.fromEntries(Object.entries(files).map(([path, bytes]) => [path, bytes.toString('utf8')]));
  } finally {
    project.remove();
  }
}

/** The federated build the tests that only read its files share, made once. */
let files: Record<string, string>;
beforeAll(async () => {
  files = await build([new SharedFallbacksPlugin(), new RemoteIntegrityPlugin(), new BuildInfoPlugin(INFO)]);
});

describe('BuildInfoPlugin', () => {
  it('names the build in its manifest, keeping what the integrity and shared-fallback plugins wrote there', () => {
    const manifest = JSON.parse(files['mf-manifest.json'] ?? 'null') as Record<string, unknown>;
    expect(manifest.buildId).toBe(INFO.id);
    expect(manifestBuildId(manifest)).toBe(INFO.id);
    expect(manifestIntegrity(manifest).get('remoteEntry.js')).toMatch(/^sha384-/);
    expect(manifest[SHARED_FALLBACKS_FIELD]).toBeDefined();
    expect(manifest.metaData).toMatchObject({ name: 'gifts', publicPath: 'auto' });
  });

  it('publishes the build as latest, and its meta with every file, the manifest among them', () => {
    expect(JSON.parse(files[join('builds', 'latest.json')] ?? 'null')).toEqual({
      id: INFO.id,
      timestamp: INFO.timestamp,
    } satisfies BuildInfo);
    const meta = JSON.parse(files[join('builds', 'meta', `${INFO.id}.json`)] ?? 'null') as BuildMeta;
    expect(meta).toMatchObject({ id: INFO.id, app: 'gifts', version: '1.0.0' });
    expect(meta.files).toContain('mf-manifest.json');
  });

  it('builds without a federation manifest, still publishing the build as latest', async () => {
    const plain = await build([new BuildInfoPlugin(INFO)], false);
    expect(plain['mf-manifest.json']).toBeUndefined();
    expect(plain[join('builds', 'latest.json')]).toBeDefined();
  });
});
