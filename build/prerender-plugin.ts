/**
 * Publishes `prerender/{Module}.json` for each page a remote prerenders: the page's markup, the
 * query cache it was rendered from and the build that rendered it, in one file so they never
 * disagree; and `prerender/pages.css`, the stylesheets those pages import (which the browser
 * otherwise gets from their scripts). The host's server puts them into the HTML it sends
 * (docs/decisions/0015-host-server-starts-the-page.md).
 *
 * The remote's `build/prerender-pages.tsx` renders its pages (the registry's routes marked
 * `prerendered`) with their real components: it exports `prerenderPages(inputs)`, given the
 * build's assets it names (the content remote's payloads, say). It is bundled for Node with
 * esbuild, the build's own constants defined as webpack defines them, and run in this process:
 * React, the router and TanStack Query come from the remote's node_modules.
 *
 * A remote whose pages the host's server renders per request with their data (the registry's
 * `serverData` routes) also gives `render`, its `build/render-pages.tsx`: bundled whole (React,
 * the router and TanStack Query inside, nothing left to `require`) as `prerender/render.js`, with
 * its styles as `prerender/render.css`. Being a script of the build, its digest is in the
 * manifest's `integrity`, which the host's server checks before it evaluates it
 * (docs/decisions/0028-data-pages-rendered-by-the-host-server.md).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { DehydratedState } from '@tanstack/react-query';
import { build, type Plugin } from 'esbuild';
import { RENDER_SCRIPT, RENDER_STYLES } from 'shared/render-contract';
import type { Compilation, Compiler } from 'webpack';

/** A page as `prerenderPages` renders it. */
export interface PrerenderedPage {
  /** The exposed module, such as `HomePage`. */
  module: string;
  /** The page's markup, as its first render in the browser produces it. */
  html: string;
  /** The query cache that markup was rendered from, for the browser's first render. */
  state: DehydratedState;
}

/** What the remote's prerender module exports. */
export type PrerenderPages = (inputs: Record<string, unknown>) => PrerenderedPage[];

/** `prerender/{Module}.json`, as the host's server reads it. */
export interface PublishedPrerender {
  /** The build whose code rendered it: the browser uses its data only with that build's code. */
  buildId: string;
  html: string;
  state: PrerenderedPage['state'];
}

export interface PrerenderPluginOptions {
  /** The module exporting `prerenderPages` (the remote's `build/prerender-pages.tsx`); none for a remote with no prerendered page. */
  entry?: string;
  /**
   * JSON assets of this build that `prerenderPages` reads, by the name it gets them under:
   * `{ home: 'payload/home.json' }`. A missing one (its plugin has reported why) publishes nothing.
   */
  inputs?: Readonly<Record<string, string>>;
  /** The module exporting `render` (the remote's `build/render-pages.tsx`), for its `serverData` pages. */
  render?: string;
}

const PLUGIN = 'PrerenderPlugin';

/** The folder of the build's prerendered pages, which the host's server reads. */
const OUTPUT_DIR = 'prerender';

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

interface Bundled {
  code: string;
  css: string;
}

/**
 * Bundles a module for the server with the build's constants, minified, its stylesheets apart:
 * - `in-build`: for this process, `shared` inside and every other package left to `require`;
 * - `self-contained`: every package inside (React's browser build of its server renderer, which
 *   needs nothing of Node's), for a context with no `require`, no `process` and no network.
 */
async function bundle(compiler: Compiler, entry: string, kind: 'in-build' | 'self-contained'): Promise<Bundled> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    outdir: join(compiler.context, OUTPUT_DIR),
    minify: true,
    format: 'cjs',
    jsx: 'automatic',
    loader: { '.css': 'css' },
    define: { ...buildDefines(compiler), 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
    ...(kind === 'in-build'
      ? { platform: 'node', target: 'node20', plugins: [keepPackagesExternal] }
      : { platform: 'browser', target: 'es2022' }),
  });
  const code = result.outputFiles.find((file) => file.path.endsWith('.js'))?.text ?? '';
  const css = result.outputFiles.find((file) => file.path.endsWith('.css'))?.text ?? '';
  return { code, css };
}

interface LoadedPrerender {
  prerenderPages: PrerenderPages;
  css: string;
}

async function loadPrerender(compiler: Compiler, entry: string): Promise<LoadedPrerender> {
  const { code, css } = await bundle(compiler, entry, 'in-build');
  const module = { exports: {} as { prerenderPages?: PrerenderPages } };
  // The bundle's packages resolve from this package's folder, as its own code's would.
  const requireHere = createRequire(join(compiler.context, 'package.json'));
  new Function('require', 'module', 'exports', code)(requireHere, module, module.exports);
  const { prerenderPages } = module.exports;
  if (!prerenderPages) throw new Error(`${entry} exports no prerenderPages`);
  return { prerenderPages, css };
}

export class PrerenderPlugin {
  constructor(private readonly options: PrerenderPluginOptions) {}

  apply(compiler: Compiler): void {
    const { Compilation: CompilationClass, WebpackError, sources } = compiler.webpack;
    const { entry, inputs = {}, render } = this.options;

    const publish = async (compilation: Compilation): Promise<void> => {
      const read: Record<string, unknown> = {};
      for (const [name, file] of Object.entries(inputs)) {
        const asset = compilation.getAsset(file);
        // The plugin that emits it has reported why; there is nothing to render from.
        if (!asset) return;
        read[name] = JSON.parse(asset.source.source().toString()) as unknown;
      }
      if (entry) {
        const { prerenderPages, css } = await loadPrerender(compiler, entry);
        compilation.emitAsset(`${OUTPUT_DIR}/pages.css`, new sources.RawSource(css));
        const buildId = JSON.parse(buildDefines(compiler).__BUILD_ID__ ?? '""') as string;
        for (const { module, html, state } of prerenderPages(read)) {
          const published: PublishedPrerender = { buildId, html, state };
          compilation.emitAsset(
            `${OUTPUT_DIR}/${module}.json`,
            new sources.RawSource(`${JSON.stringify(published)}\n`),
          );
        }
      }
      // Only a production build: the development servers render no page with its data, and each
      // rebuild would bundle it again.
      if (render && compiler.options.mode === 'production') {
        const { code, css } = await bundle(compiler, render, 'self-contained');
        // Already minified: the build's minifier leaves it as it is, and its digest is taken as emitted.
        compilation.emitAsset(RENDER_SCRIPT, new sources.RawSource(code), { minimized: true });
        compilation.emitAsset(RENDER_STYLES, new sources.RawSource(css));
      }
    };

    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        // After the plugins that emit its inputs (stage ADDITIONAL), before the build-info file list is written.
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
