/** @jest-environment node */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { manifestBuildId, manifestIntegrity, SHARED_FALLBACKS_FIELD } from 'shared/remote-manifest';
import {
  PUBLISHED_ROUTES_FIELD,
  manifestPublishedRoutes,
  publishedRoutesOf,
  type PublishedRoute,
} from 'shared/published-routes';
import { REMOTE_NAMES, REMOTES, type RemoteSpec } from 'shared/remotes';
import { createWebpackConfig } from '../webpack.config.base';
import { scaffoldRemote } from '../scripts/new-remote';
import { BuildInfoPlugin } from './build-info-plugin';
import { RemoteIntegrityPlugin } from './integrity-plugin';
import { ownSpecOf } from './package-spec';
import { PublishedRoutesPlugin, publishedRoutesPlugin } from './published-routes-plugin';
import { SharedFallbacksPlugin } from './shared-fallbacks';
import { remoteProject, type RemoteProject } from './testing/remote-build';

const ROOT = join(__dirname, '..');
const INFO = { id: 'b-2027.01.15_1', timestamp: 1_800_000_000_000, app: 'gifts', version: '1.0.0', dir: 'builds' };

let project: RemoteProject;

beforeEach(() => {
  project = remoteProject('published-routes-plugin-', {
    'src/index.js': 'import("./page");\n',
    'src/page.js': 'export default function page() { return "a page"; }\n',
  });
});
afterEach(() => project.remove());

/** The manifest of a production build with a remote's plugins in webpack.config.base.ts's order. */
async function builtManifest(routes: PublishedRoutesPlugin): Promise<Record<string, unknown>> {
  const files = await project.build([
    new SharedFallbacksPlugin(),
    routes,
    new RemoteIntegrityPlugin(),
    new BuildInfoPlugin(INFO),
  ]);
  return JSON.parse(files['mf-manifest.json']?.toString('utf8') ?? 'null') as Record<string, unknown>;
}

/** Every route of a registry entry, as a host reads it back. */
function registryRoutes(spec: RemoteSpec): PublishedRoute[] {
  return Object.entries(spec.exposes).flatMap(([module, { routes }]) => routes.map((route) => ({ module, ...route })));
}

describe('PublishedRoutesPlugin', () => {
  it("publishes exactly the registry's routes in the remote's manifest, beside its digests and build id", async () => {
    const manifest = await builtManifest(publishedRoutesPlugin('gifts'));
    expect(manifest[PUBLISHED_ROUTES_FIELD]).toEqual(publishedRoutesOf('gifts', REMOTES.gifts));
    expect(manifestPublishedRoutes(manifest, { remote: 'gifts' })).toEqual({
      remote: 'gifts',
      routes: registryRoutes(REMOTES.gifts),
      refusals: [],
    });
    expect(manifestIntegrity(manifest).get('remoteEntry.js')).toMatch(/^sha384-/);
    expect(manifestBuildId(manifest)).toBe(INFO.id);
    expect(manifest[SHARED_FALLBACKS_FIELD]).toBeDefined();
  });

  it('stops the build of a registry entry whose routes a host would refuse, saying which and why', async () => {
    const spec: RemoteSpec = {
      ...REMOTES.gifts,
      exposes: { GamePage: { file: './src/page.js', routes: [{ path: '/game/', layout: 'default', title: 'Play' }] } },
    };
    await expect(builtManifest(publishedRoutesPlugin('gifts', undefined, () => spec))).rejects.toThrow(
      /a host would refuse GamePage \/game\/ of the gifts remote's spec \(shared\/src\/remotes\.ts\): its path "\/game\/" must start with "\/" and not end with one/,
    );
  });

  it('refuses a remote the registry does not name and whose config gives no spec', () => {
    expect(() => publishedRoutesPlugin('nosuch')).toThrow(
      '"nosuch" is not a remote in the registry (shared/src/remotes.ts) and its webpack config gives no spec',
    );
  });

  it('refuses a spec of its own for a remote of the registry', () => {
    expect(() => publishedRoutesPlugin('gifts', REMOTES.gifts)).toThrow('its spec is its registry entry');
  });
});

describe("every remote's webpack config", () => {
  // A remote's development config sets NODE_ENV for the federation plugin (webpack.config.base.ts).
  const nodeEnv = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  it.each(REMOTE_NAMES)('%s publishes its registry routes, in production and in development', (name) => {
    for (const mode of ['production', 'development'] as const) {
      const spec = REMOTES[name];
      const config = createWebpackConfig({ name, dir: join(ROOT, spec.packageDir), port: 1, title: 'A title' })(
        undefined,
        { mode },
      );
      const plugins = config.plugins?.filter((plugin) => plugin instanceof PublishedRoutesPlugin) ?? [];
      expect(plugins.map((plugin) => plugin.document)).toEqual([publishedRoutesOf(name, spec)]);
    }
  });
});

describe('a remote scaffolded by npm run new-remote, which the registry does not name', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'published-routes-news-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** The scaffold's own spec, as its webpack config imports it. */
  function scaffoldedNews(): { dir: string; spec: RemoteSpec } {
    const { dir } = scaffoldRemote('news', root);
    const own = ownSpecOf(dir);
    if (!own) throw new Error('the scaffold wrote no remote-spec.ts');
    return { dir, spec: own.spec };
  }

  it("publishes its spec's routes in its manifest, as a host reads them back", async () => {
    const { spec } = scaffoldedNews();
    const manifest = await builtManifest(publishedRoutesPlugin('news', spec));
    expect(manifest[PUBLISHED_ROUTES_FIELD]).toEqual(publishedRoutesOf('news', spec));
    expect(manifestPublishedRoutes(manifest, { remote: 'news' })).toEqual({
      remote: 'news',
      routes: [{ module: 'NewsPage', path: '/news', layout: 'default', title: 'News', prerendered: true }],
      refusals: [],
    });
  });

  it('builds from the spec its webpack config gives: its exposes, its published routes and its port', () => {
    const { dir, spec } = scaffoldedNews();
    const config = createWebpackConfig({ name: 'news', dir, spec, title: 'News remote' })(undefined, {
      mode: 'production',
    });
    const published = config.plugins?.filter((plugin) => plugin instanceof PublishedRoutesPlugin) ?? [];
    expect(published.map((plugin) => plugin.document)).toEqual([publishedRoutesOf('news', spec)]);
    // The federation plugin keeps its options to itself; they are what it gives webpack.
    const federation = config.plugins?.find((plugin) => plugin instanceof ModuleFederationPlugin) as unknown as {
      _options: { exposes: unknown };
    };
    expect(federation._options.exposes).toEqual({ './NewsPage': './src/exposed/news-page.tsx' });
    expect(config.devServer?.port).toBe(spec.port);
  });
});
