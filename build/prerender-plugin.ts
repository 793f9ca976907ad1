/**
 * Publishes a remote's prerendered pages (`prerender/{Module}.json`: markup, query cache and
 * build in one file so they never disagree, and `prerender/pages.css`) and, for its `serverData`
 * pages, `prerender/render.js`, a self-contained bundle whose digest is in the manifest's
 * `integrity` (docs/decisions/0015-host-server-starts-the-page.md, 0028).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { DehydratedState } from '@tanstack/react-query';
import { build, type Plugin } from 'esbuild';
import { RENDER_SCRIPT, RENDER_STYLES } from 'shared/render-contract';
import type { Compilation, Compiler } from 'webpack';

export interface PrerenderedPage {
  module: string;
  html: string;
  state: DehydratedState;
}

export type PrerenderPages = (inputs: Record<string, unknown>) => PrerenderedPage[];

export interface PublishedPrerender {
  /** The browser uses its data only with this build's code. */
  buildId: string;
  html: string;
  state: PrerenderedPage['state'];
}

export interface PrerenderPluginOptions {
  /** The remote's `build/prerender-pages.tsx`, run in this process. */
  entry?: string;
  /** `{ home: 'payload/home.json' }`; a missing one (its plugin reported why) publishes nothing. */
  inputs?: Readonly<Record<string, string>>;
  /** The remote's `build/render-pages.tsx`. */
  render?: string;
}

const PLUGIN = 'PrerenderPlugin';

const OUTPUT_DIR = 'prerender';

/** `shared` is TypeScript source: bundled. */
const keepPackagesExternal: Plugin = {
  name: 'keep-packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path === 'shared' || path.startsWith('shared/') ? undefined : { external: true },
    );
  },
};

/** As webpack's DefinePlugin writes them. */
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

/** `self-contained`: for a context with no `require`, no `process` and no network. */
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
