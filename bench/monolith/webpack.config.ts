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
import type { Configuration, WebpackPluginInstance } from 'webpack';
import { REMOTES } from 'shared/remotes';
import hostConfig from '../../host/webpack.config';
import { createWebpackConfig } from '../../webpack.config.base';
import { MONOLITH_BUILD_DIR, MONOLITH_EXPOSED_MODULES_FILE, ROOT_DIR, WORK_DIR } from '../src/paths';

type Argv = Parameters<typeof hostConfig>[1];
type ConfigFunction = (env: unknown, argv: Argv) => Configuration;

/** The module ./federation-runtime.ts imports: `{ 'gifts/GamePage': () => import('…/game-page.tsx') }`. */
export const EXPOSED_MODULES_ALIAS = 'bench-monolith-exposed-modules';

function writeExposedModules(): void {
  const entries = Object.entries(REMOTES).flatMap(([remote, spec]) =>
    Object.entries(spec.exposes).map(([module, { file }]) => {
      const path = join(ROOT_DIR, spec.packageDir, file);
      return `  ${JSON.stringify(`${remote}/${module}`)}: () => import(${JSON.stringify(path)}),`;
    }),
  );
  mkdirSync(dirname(MONOLITH_EXPOSED_MODULES_FILE), { recursive: true });
  writeFileSync(
    MONOLITH_EXPOSED_MODULES_FILE,
    `// Written by bench/monolith/webpack.config.ts from shared/src/remotes.ts.\nexport const EXPOSED_MODULES = {\n${entries.join('\n')}\n};\n`,
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
  ];
  // Leave the development server out: the bench serves the build with the host's production server.
  const { devServer: _devServer, ...config } = host;
  return {
    ...config,
    cache: ownCache(config.cache),
    output: { ...config.output, path: MONOLITH_BUILD_DIR, uniqueName: 'monolith' },
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
