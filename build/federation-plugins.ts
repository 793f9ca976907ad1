/**
 * The federation runtime, once per page and no bigger than it needs to be.
 *
 * - A remote's container leaves the federation runtime out (`externalRuntime`), and the bundler
 *   runtime's functions (ContainerBundlerRuntimePlugin, decision 0052): on the site, the host's
 *   main.js provides them (BUNDLER_RUNTIME_PROVIDER), once for every remote.
 * - StandaloneRuntimePlugin: a remote's standalone page has no host, so the plugin publishes both
 *   as a script of its own, `federation-runtime.{hash}.js`, put in the page's HTML before the
 *   page's own scripts. The site never loads it.
 * - TrimFederationRuntimePlugin: takes out of the runtime chunks (remoteEntry.js, main.js) what
 *   @module-federation/enhanced puts there although nothing runs it.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Compiler, Module, RuntimeModule } from 'webpack';

export interface StandaloneRuntimeOptions {
  /** esbuild's target for the browsers, as the rest of the build's. */
  target: string;
  minify: boolean;
}

const STANDALONE = 'StandaloneRuntimePlugin';
/** The global `externalRuntime` containers read the runtime from (@module-federation/enhanced). */
const RUNTIME_GLOBAL = '_FEDERATION_RUNTIME_CORE';
/** What publishes the bundler runtime's functions for the containers: the host's runtime plugin (decision 0052). */
export const BUNDLER_RUNTIME_PROVIDER = join(__dirname, 'bundler-runtime', 'provide.mjs');

/**
 * A remote's container takes the bundler runtime's functions from the page (decision 0052): the
 * module the federation plugin imports for them is replaced by one that reads them there.
 */
export class ContainerBundlerRuntimePlugin {
  apply(compiler: Compiler): void {
    new compiler.webpack.NormalModuleReplacementPlugin(
      /@module-federation[\\/]webpack-bundler-runtime[\\/]dist[\\/](index|bundler)\.js$/,
      join(__dirname, 'bundler-runtime', 'container.mjs'),
    ).apply(compiler);
  }
}

/** Where the containers' runtime comes from: the folder @module-federation/enhanced resolves it from. */
function runtimeToolsDir(): string {
  const fromEnhanced = createRequire(require.resolve('@module-federation/enhanced/webpack'));
  return dirname(fromEnhanced.resolve('@module-federation/runtime-tools/package.json'));
}

async function bundleRuntime(options: StandaloneRuntimeOptions): Promise<string> {
  const result = await build({
    stdin: {
      // The bundler runtime's functions too, as the host's main.js provides them (decision 0052).
      contents: [
        `export * from '@module-federation/runtime-core';`,
        `import { provideBundlerRuntime } from ${JSON.stringify(BUNDLER_RUNTIME_PROVIDER)};`,
        `provideBundlerRuntime();`,
      ].join('\n'),
      resolveDir: runtimeToolsDir(),
    },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: RUNTIME_GLOBAL,
    target: options.target,
    minify: options.minify,
    // As the federation plugin tells webpack for the host's copy: browser code paths only.
    define: { ENV_TARGET: '"web"' },
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

export class StandaloneRuntimePlugin {
  private code: Promise<string> | undefined;

  constructor(private readonly options: StandaloneRuntimeOptions) {}

  apply(compiler: Compiler): void {
    const { Compilation, WebpackError, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(STANDALONE, (compilation) => {
      let file: string | undefined;
      compilation.hooks.processAssets.tapPromise(
        { name: STANDALONE, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        async () => {
          try {
            // Once per process: `webpack serve` rebuilds need not bundle it again.
            this.code ??= bundleRuntime(this.options);
            const code = await this.code;
            const hash = compiler.webpack.util.createHash('xxhash64').update(code).digest('hex').toString();
            file = `federation-runtime.${hash.slice(0, 16)}.js`;
            compilation.emitAsset(file, new sources.RawSource(code), { immutable: true, minimized: true });
          } catch (error) {
            this.code = undefined;
            const reason = error instanceof Error ? error.message : String(error);
            compilation.errors.push(new WebpackError(`${STANDALONE}: ${reason}`));
          }
        },
      );
      // Before the page's own scripts, all of them `defer`red, so run in this order.
      HtmlWebpackPlugin.getHooks(compilation).beforeAssetTagGeneration.tap(STANDALONE, (data) => {
        if (file) data.assets.js.unshift(`${data.assets.publicPath}${file}`);
        return data;
      });
    });
  }
}

const TRIM = 'TrimFederationRuntimePlugin';
/** @module-federation/enhanced's plugin that moves the federation runtime's modules into runtime chunks. */
const HOIST = 'HoistContainerReferences';

/**
 * Two things @module-federation/enhanced 2.9 leaves in every runtime chunk that never run:
 *
 * - Its HoistContainerReferences moves every module the federation runtime imports into the
 *   runtime chunks, following imports webpack has found unused (`sideEffects: false`
 *   re-exports): all of `@module-federation/sdk`'s index, whose Node loader, manifest parser and
 *   DOM helpers nothing calls. What webpack had put in no chunk at all before the hoisting is
 *   taken out again; what webpack did place stays where the hoist put it.
 * - webpack 5.111 adds its own `sharing` runtime module (`__webpack_require__.I` with a register
 *   call per shared module) wherever the share scope map is used, and the federation's own
 *   `sharing` module, which runs after it, replaces everything it defines. Where both are in a
 *   chunk, webpack's is taken out.
 */
export class TrimFederationRuntimePlugin {
  apply(compiler: Compiler): void {
    // A webpack internal: no types, and no export but its path.
    const CoreShareRuntimeModule =
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the instance webpack itself loads
      require('webpack/lib/sharing/ShareRuntimeModule') as abstract new () => RuntimeModule;

    compiler.hooks.thisCompilation.tap(TRIM, (compilation) => {
      const { chunkGraph } = compilation;
      const placed = new Set<Module>();
      compilation.hooks.optimizeChunks.tap({ name: TRIM, stage: 11, before: HOIST }, (chunks) => {
        placed.clear();
        for (const chunk of chunks) for (const module of chunkGraph.getChunkModulesIterable(chunk)) placed.add(module);
      });
      compilation.hooks.optimizeChunks.tap({ name: TRIM, stage: 12 }, (chunks) => {
        for (const chunk of chunks) {
          for (const module of [...chunkGraph.getChunkModulesIterable(chunk)]) {
            if (!placed.has(module)) chunkGraph.disconnectChunkAndModule(chunk, module);
          }
        }
        placed.clear();
      });
      compilation.hooks.afterRuntimeRequirements.tap(TRIM, () => {
        for (const chunk of compilation.chunks) {
          const sharing = [...chunkGraph.getChunkRuntimeModulesIterable(chunk)].filter(
            (module) => module.name === 'sharing',
          );
          const core = sharing.filter((module) => module instanceof CoreShareRuntimeModule);
          if (core.length === sharing.length) continue;
          for (const module of core) chunkGraph.disconnectChunkAndRuntimeModule(chunk, module);
        }
      });
    });
  }
}

const CACHE_FIX = 'ConsumeSharedCachePlugin';

/**
 * Keeps a warm build (webpack's persistent cache) the same as a cold one for modules that
 * re-export a shared module (react-router-dom's `export * from 'react-router'`, were both
 * shared as packages: the parts now share react-router's client API instead).
 *
 * @module-federation/enhanced's ConsumeSharedPlugin gives each shared module's consumer the
 * build information of its fallback, at `finishModules` stage 10, after webpack has worked out
 * which exports every module provides. On a cold build webpack finds the consumer without
 * declared exports then, so "any export", and `export *` from it re-exports whatever the shared
 * module turns out to hold. But the persistent cache stores the consumer with the copied build
 * information, and on the next build webpack sees an ES module that declares no exports: the
 * `export *` re-exports nothing, and a remote's own react-router-dom loses everything it takes
 * from react-router (its standalone page then fails to render). Before webpack works the exports
 * out, this gives each consumer back the empty build information of a cold build; the
 * federation plugin copies its fallback's again at stage 10, as on a cold build.
 */
export class ConsumeSharedCachePlugin {
  apply(compiler: Compiler): void {
    compiler.hooks.thisCompilation.tap(CACHE_FIX, (compilation) => {
      compilation.hooks.finishModules.tap({ name: CACHE_FIX, stage: -10 }, (modules) => {
        for (const module of modules) {
          if (module.type === 'consume-shared-module' && module.buildMeta?.exportsType) module.buildMeta = {};
        }
      });
    });
  }
}
