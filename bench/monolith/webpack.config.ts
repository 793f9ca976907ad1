/**
 * The monolith baseline: the host's own webpack config without module federation; `loadRemote`
 * becomes an `import()` of the file the registry names, so every remote page is a lazy chunk of
 * one build. Each remote's own build steps run here too. Only the bench uses it.
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

/** Scripts the server-rendered monolith preloads, as the host's server preloads a remote page's. */
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

/** A remote's own build steps: its config's plugins less the base's. */
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
        !(plugin instanceof PrerenderPlugin),
    );
  });
}

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
  const { devServer: _devServer, ...config } = host;
  return {
    ...config,
    cache: ownCache(config.cache),
    // CORS mode, as the host's server preloads a page's scripts (`crossorigin`), so the preloads are used.
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
