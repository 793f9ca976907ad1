/**
 * The monolith baseline: the host's own webpack config (host/src/index.ts, the same React,
 * router, DefinePlugin globals, mode, loaders and minifier, all from webpack.config.base.ts),
 * without module federation. The federation runtime the host imports is replaced by
 * ./federation-runtime.ts, whose `loadRemote('gifts/GamePage')` is a webpack `import()` of the
 * file the registry of remotes names for that module, so every remote page is a lazy chunk of
 * this one build. Each remote's own build steps (the plugins its config adds to the base's,
 * such as remote-content's PayloadPlugin) run here too, writing into this build: its payloads
 * are at the build's root, where payload-url.ts looks (the public path, `/` for the host). Its
 * webpack cache, if the base has one, is its own, in bench/.work/cache/.
 *
 *   webpack --config bench/monolith/webpack.config.ts --mode production    (bench/src/build.ts runs it)
 *
 * Only the bench uses it; nothing ships it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { PrerenderPlugin } from '../../build/prerender-plugin';
import type { Compiler, Configuration, WebpackPluginInstance } from 'webpack';
import { REMOTES } from 'shared/remotes';
import hostConfig from '../../host/webpack.config';
import { createWebpackConfig } from '../../webpack.config.base';
import {
  MONOLITH_BUILD_DIR,
  MONOLITH_CHUNKS_FILE,
  MONOLITH_EXPOSED_MODULES_FILE,
  ROOT_DIR,
  WORK_DIR,
} from '../src/paths';

type Argv = Parameters<typeof hostConfig>[1];
type ConfigFunction = (env: unknown, argv: Argv) => Configuration;

/** The module ./federation-runtime.ts imports: `{ 'gifts/GamePage': () => import('…/game-page.tsx') }`. */
export const EXPOSED_MODULES_ALIAS = 'bench-monolith-exposed-modules';

function writeExposedModules(): void {
  const entries = exposedFiles().map(
    ({ id, path }) => `  ${JSON.stringify(id)}: () => import(${JSON.stringify(path)}),`,
  );
  mkdirSync(dirname(MONOLITH_EXPOSED_MODULES_FILE), { recursive: true });
  writeFileSync(
    MONOLITH_EXPOSED_MODULES_FILE,
    `// Written by bench/monolith/webpack.config.ts from shared/src/remotes.ts.\nexport const EXPOSED_MODULES = {\n${entries.join('\n')}\n};\n`,
  );
}

/**
 * Writes MONOLITH_CHUNKS_FILE: for each exposed module (`gifts/GamePage`), the scripts its
 * `import()` loads, in the order webpack lists them. The server-rendered monolith
 * (bench/src/ssr-monolith.ts) preloads them from its HTML, as the host's server preloads a
 * remote page's scripts.
 */
class ExposedChunksPlugin {
  apply(compiler: Compiler): void {
    compiler.hooks.thisCompilation.tap('ExposedChunksPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'ExposedChunksPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          const byFile = new Map(exposedFiles().map(({ id, path }) => [path, id]));
          const chunks: Record<string, string[]> = {};
          for (const group of compilation.chunkGroups) {
            for (const origin of group.origins) {
              const id = origin.request === undefined ? undefined : byFile.get(origin.request);
              if (!id) continue;
              const files = group.chunks.flatMap((chunk) => [...chunk.files].filter((file) => file.endsWith('.js')));
              chunks[id] = [...new Set([...(chunks[id] ?? []), ...files])];
            }
          }
          compilation.emitAsset(
            MONOLITH_CHUNKS_FILE,
            new compiler.webpack.sources.RawSource(`${JSON.stringify(chunks, null, 1)}\n`),
          );
        },
      );
    });
  }
}

function exposedFiles(): { id: string; path: string }[] {
  return Object.entries(REMOTES).flatMap(([remote, spec]) =>
    Object.entries(spec.exposes).map(([module, { file }]) => ({
      id: `${remote}/${module}`,
      path: join(ROOT_DIR, spec.packageDir, file),
    })),
  );
}

function isFederation(plugin: unknown): boolean {
  return plugin instanceof ModuleFederationPlugin;
}

function kindsOf(plugins: Configuration['plugins']): Set<unknown> {
  return new Set((plugins ?? []).map((plugin) => (plugin as object | null)?.constructor));
}

/**
 * The plugins a remote's config adds to those webpack.config.base.ts gives every remote (its
 * own build steps, such as remote-content's PayloadPlugin), by comparing its config with the
 * base's for the same remote without extra plugins; not their prerenders.
 */
function remoteOwnPlugins(env: unknown, argv: Argv): WebpackPluginInstance[] {
  const load = createRequire(__filename);
  return Object.entries(REMOTES).flatMap(([name, { packageDir, port }]) => {
    const dir = join(ROOT_DIR, packageDir);
    const base = kindsOf(createWebpackConfig({ name, dir, port, title: name })(env, argv).plugins);
    const { default: remoteConfig } = load(join(dir, 'webpack.config.ts')) as { default: ConfigFunction };
    return (remoteConfig(env, argv).plugins ?? []).filter(
      (plugin): plugin is WebpackPluginInstance =>
        typeof plugin === 'object' &&
        plugin !== null &&
        !base.has(plugin.constructor) &&
        !isFederation(plugin) &&
        // The monolith is the client-rendered baseline: its server reads no prerendered markup.
        !(plugin instanceof PrerenderPlugin),
    );
  });
}

/** The base's persistent cache, if it has one, kept apart from the host's in bench/.work/. */
function ownCache(cache: Configuration['cache']): Configuration['cache'] {
  if (typeof cache !== 'object' || cache.type !== 'filesystem') return cache;
  const config = [...(cache.buildDependencies?.config ?? []), __filename];
  return {
    ...cache,
    name: 'monolith',
    cacheDirectory: join(WORK_DIR, 'cache', 'webpack'),
    buildDependencies: { ...cache.buildDependencies, config },
  };
}

export default (env: unknown, argv: Argv): Configuration => {
  const production: Argv = { ...argv, mode: argv.mode ?? 'production' };
  const host = hostConfig(env, production);
  writeExposedModules();
  const plugins = [
    ...(host.plugins ?? []).filter((plugin) => !isFederation(plugin)),
    ...remoteOwnPlugins(env, production),
    new ExposedChunksPlugin(),
  ];
  // Leave the development server out: the bench serves the build with the host's production server.
  const { devServer: _devServer, ...config } = host;
  return {
    ...config,
    cache: ownCache(config.cache),
    // Its chunks load in CORS mode (same origin: nothing else changes), as the host's server
    // preloads a page's scripts (`crossorigin`), so the server-rendered monolith's preloads are used.
    output: { ...config.output, path: MONOLITH_BUILD_DIR, uniqueName: 'monolith', crossOriginLoading: 'anonymous' },
    resolve: {
      ...config.resolve,
      alias: {
        ...(config.resolve?.alias as Record<string, string> | undefined),
        '@module-federation/enhanced/runtime$': join(__dirname, 'federation-runtime.ts'),
        [`${EXPOSED_MODULES_ALIAS}$`]: MONOLITH_EXPOSED_MODULES_FILE,
      },
    },
    plugins,
  };
};
