/**
 * Publishes `prerender/{Module}.json` for each prerendered page (prerender-pages.tsx), from the
 * payloads PayloadPlugin has just emitted: the page's markup, the query cache it was rendered
 * from and the build that rendered it, in one file so they never disagree; and
 * `prerender/pages.css`, the stylesheets those pages import (which the browser otherwise gets
 * from their scripts). The pages' code is
 * bundled for Node with esbuild, the build's own constants defined as webpack defines them, and
 * run in this process: React, the router and TanStack Query come from node_modules.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { Compilation, Compiler } from 'webpack';
import type { PrerenderedPage } from './prerender-pages';

/** `prerender/{Module}.json`, as the host's server reads it. */
export interface PublishedPrerender {
  /** The build whose code rendered it: the browser uses its data only with that build's code. */
  buildId: string;
  html: string;
  state: PrerenderedPage['state'];
}

export interface PrerenderPluginOptions {
  /** The pages whose payloads (`payload/{page}.json`) the prerender reads. */
  pages: readonly string[];
  /** Folder of the payloads inside the output (PayloadPlugin's). */
  payloadDir?: string;
  /** Folder inside the output. */
  outputDir?: string;
}

const PLUGIN = 'PrerenderPlugin';
const ENTRY = join(__dirname, 'prerender-pages.tsx');

/** `shared` is TypeScript source, so it is bundled; every other package is loaded from node_modules. */
const keepPackagesExternal: Plugin = {
  name: 'keep-packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path === 'shared' || path.startsWith('shared/') ? undefined : { external: true },
    );
  },
};

/** The values webpack's DefinePlugin writes into this build (`__BUILD_ID__`, `__BUILD_TIMESTAMP__`). */
function buildDefines(compiler: Compiler): Record<string, string> {
  const defines: Record<string, string> = {};
  for (const plugin of compiler.options.plugins) {
    if (!(plugin instanceof compiler.webpack.DefinePlugin)) continue;
    for (const [name, value] of Object.entries(plugin.definitions)) {
      if (name.startsWith('__BUILD_') && typeof value === 'string') defines[name] = value;
    }
  }
  return defines;
}

interface LoadedPrerender {
  prerenderPages: (payloads: Record<string, unknown>) => PrerenderedPage[];
  css: string;
}

async function loadPrerender(compiler: Compiler): Promise<LoadedPrerender> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    outdir: join(compiler.context, 'prerender'),
    minify: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    jsx: 'automatic',
    loader: { '.css': 'css' },
    define: { ...buildDefines(compiler), 'process.env.NODE_ENV': '"production"' },
    plugins: [keepPackagesExternal],
    logLevel: 'silent',
  });
  const code = result.outputFiles.find((file) => file.path.endsWith('.js'))?.text ?? '';
  const css = result.outputFiles.find((file) => file.path.endsWith('.css'))?.text ?? '';
  const module = { exports: {} as { prerenderPages?: (payloads: Record<string, unknown>) => PrerenderedPage[] } };
  // The bundle's packages resolve from this package's folder, as its own code's would.
  const requireHere = createRequire(join(compiler.context, 'package.json'));
  new Function('require', 'module', 'exports', code)(requireHere, module, module.exports);
  const { prerenderPages } = module.exports;
  if (!prerenderPages) throw new Error('prerender-pages.tsx exports no prerenderPages');
  return { prerenderPages, css };
}

export class PrerenderPlugin {
  constructor(private readonly options: PrerenderPluginOptions) {}

  apply(compiler: Compiler): void {
    const { Compilation: CompilationClass, WebpackError, sources } = compiler.webpack;
    const { pages, payloadDir = 'payload', outputDir = 'prerender' } = this.options;

    const publish = async (compilation: Compilation): Promise<void> => {
      const payloads: Record<string, unknown> = {};
      for (const page of pages) {
        const asset = compilation.getAsset(`${payloadDir}/${page}.json`);
        // PayloadPlugin has reported why; there is nothing to render from.
        if (!asset) return;
        payloads[page] = JSON.parse(asset.source.source().toString()) as unknown;
      }
      const { prerenderPages, css } = await loadPrerender(compiler);
      compilation.emitAsset(`${outputDir}/pages.css`, new sources.RawSource(css));
      const buildId = JSON.parse(buildDefines(compiler).__BUILD_ID__ ?? '""') as string;
      for (const { module, html, state } of prerenderPages(payloads)) {
        const published: PublishedPrerender = { buildId, html, state };
        compilation.emitAsset(`${outputDir}/${module}.json`, new sources.RawSource(`${JSON.stringify(published)}\n`));
      }
    };

    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        // After PayloadPlugin (stage ADDITIONAL), before the build-info file list is written.
        { name: PLUGIN, stage: CompilationClass.PROCESS_ASSETS_STAGE_ADDITIONAL + 1 },
        async () => {
          try {
            await publish(compilation);
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            compilation.errors.push(new WebpackError(`${PLUGIN}: ${reason}`));
          }
        },
      );
    });
  }
}
