/**
 * A remote's own copies of the shared modules the page lacks, named in its `mf-manifest.json` so
 * the host's HTML can fetch them with the page's scripts.
 *
 * A remote's page takes every shared module from the page when the page has it (the host
 * provides what its own code imports) and otherwise loads the remote's own copy. The federation
 * runtime finds that out only once the remote's entry has run: one more round trip, after the
 * entry's. The remote's build knows which shared modules each exposed module needs and which
 * scripts hold its copy of each; SharedFallbacksPlugin writes that into the manifest, and the
 * host's server (`sharedFallbackScripts` in `shared/remote-manifest`) preloads the copies its page does not provide,
 * and so does the host's page when it preloads a route (`host/src/federation/loading-plugin.ts`).
 * The copies of `shared`'s own modules are one chunk (`shared-copies`), not one chunk each.
 */
import { SHARED_FALLBACKS_FIELD, type SharedFallbacks } from 'shared/remote-manifest';
import type { Chunk, ChunkGroup, Compilation, Compiler, Module } from 'webpack';

const MANIFEST = 'mf-manifest.json';
const PLUGIN = 'SharedFallbacksPlugin';
/** The chunk @module-federation/enhanced makes of each exposed module. */
const EXPOSE_CHUNK_PREFIX = '__federation_expose_';

interface ConsumeSharedModule extends Module {
  options: { shareKey: string };
}

/** @module-federation/enhanced's ProvideSharedModule: the remote's own copy, put in the share scope at its start. */
interface ProvideSharedModule extends Module {
  _name: string;
}

function isConsumeShared(module: Module): module is ConsumeSharedModule {
  return module.type === 'consume-shared-module';
}

function isProvideShared(module: Module): module is ProvideSharedModule {
  return module.type === 'provide-module';
}

/** A module of the `shared` package's own source (`shared/src/…`). */
const SHARED_SOURCE = /[\\/]shared[\\/]src[\\/]/;
/**
 * …but not the lists of the libraries shared as a list of their exports (`shared/src/browser/router/`,
 * the shared `react-router-dom`, and `shared/src/browser/query/`, the shared `@tanstack/react-query`):
 * libraries every page's host provides, whose copies stay with the libraries'.
 */
const LIBRARY_LISTS = /[\\/]shared[\\/]src[\\/]browser[\\/](router|query)[\\/]/;

export class SharedFallbacksPlugin {
  apply(compiler: Compiler): void {
    const { RawSource } = compiler.webpack.sources;
    groupSharedCopies(compiler);
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tap(
        // After @module-federation/enhanced has written the manifest (OPTIMIZE_TRANSFER).
        { name: PLUGIN, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT - 1 },
        () => {
          const asset = compilation.getAsset(MANIFEST);
          if (!asset) return;
          const manifest = JSON.parse(asset.source.source().toString()) as Record<string, unknown>;
          manifest[SHARED_FALLBACKS_FIELD] = sharedFallbacksOf(compilation);
          compilation.updateAsset(MANIFEST, new RawSource(JSON.stringify(manifest, null, 2)));
        },
      );
    });
  }
}

/**
 * The remote's copies of `shared`'s modules in one chunk. Each shared module's copy was a chunk
 * of its own, 0.2 to 2 kB gzip: a page that lacked ten of them fetched ten scripts, more than a
 * browser's six connections to one origin take at once (another round trip), for 10.6 kB where
 * all of `shared` the remote holds is 9.5 kB in one file. Production builds only: a development
 * build's chunks are as webpack splits them.
 */
function groupSharedCopies(compiler: Compiler): void {
  if (compiler.options.mode !== 'production') return;
  const optimization = compiler.options.optimization;
  const splitChunks = optimization.splitChunks === false ? {} : (optimization.splitChunks ?? {});
  optimization.splitChunks = {
    ...splitChunks,
    cacheGroups: {
      ...splitChunks.cacheGroups,
      sharedCopies: {
        test: (module: Module) => {
          const name = module.nameForCondition() ?? '';
          return SHARED_SOURCE.test(name) && !LIBRARY_LISTS.test(name);
        },
        chunks: 'async',
        name: 'shared-copies',
        enforce: true,
        priority: 20,
      },
    },
  };
}

function sharedFallbacksOf(compilation: Compilation): SharedFallbacks {
  const { chunkGraph } = compilation;
  const result: SharedFallbacks = { exposes: {}, shared: {} };

  /** The shared modules the chunks' code takes from the share scope. */
  const consumedIn = (chunks: Iterable<Chunk>): ConsumeSharedModule[] => {
    const found = new Map<string, ConsumeSharedModule>();
    for (const chunk of chunks) {
      for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
        if (isConsumeShared(module)) found.set(module.options.shareKey, module);
      }
    }
    return [...found.values()].sort((a, b) => a.options.shareKey.localeCompare(b.options.shareKey));
  };

  // The remote puts its own copy of each shared module in the page's share scope when it starts;
  // a module the page lacks is then loaded through that copy's block (the consumer's own
  // fallback, a duplicate chunk of the same code, serves only where nothing is in the scope).
  const provided = new Map<string, ProvideSharedModule>();
  for (const module of compilation.modules) if (isProvideShared(module)) provided.set(module._name, module);

  const describe = (consumer: ConsumeSharedModule): void => {
    const key = consumer.options.shareKey;
    if (result.shared[key]) return;
    // An eager copy is in the chunk that uses it; a lazy one is loaded through its block.
    const block = (provided.get(key) ?? consumer).blocks[0];
    const group: ChunkGroup | undefined = block ? chunkGraph.getBlockChunkGroup(block) : undefined;
    const chunks = group?.chunks ?? [];
    const js = chunks.flatMap((chunk) => [...chunk.files].filter((file) => file.endsWith('.js'))).sort();
    const uses = consumedIn(chunks).filter((module) => module.options.shareKey !== key);
    result.shared[key] = { js, uses: uses.map((module) => module.options.shareKey) };
    uses.forEach(describe);
  };

  for (const [name, group] of compilation.namedChunkGroups) {
    if (!name.startsWith(EXPOSE_CHUNK_PREFIX)) continue;
    const consumers = consumedIn(group.chunks);
    result.exposes[name.slice(EXPOSE_CHUNK_PREFIX.length)] = consumers.map((module) => module.options.shareKey);
    consumers.forEach(describe);
  }
  return result;
}
