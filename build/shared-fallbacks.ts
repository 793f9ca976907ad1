/** A remote's copies of shared modules by exposed module, in its manifest, for the host to preload (decision 0016). */
import { SHARED_FALLBACKS_FIELD, type SharedFallbacks } from 'shared/remote-manifest';
import type { Chunk, ChunkGroup, Compilation, Compiler, Module } from 'webpack';

const MANIFEST = 'mf-manifest.json';
const PLUGIN = 'SharedFallbacksPlugin';
const EXPOSE_CHUNK_PREFIX = '__federation_expose_';

interface ConsumeSharedModule extends Module {
  options: { shareKey: string };
}

/** ProvideSharedModule: the remote's own copy, put in the share scope at its start. */
interface ProvideSharedModule extends Module {
  _name: string;
}

function isConsumeShared(module: Module): module is ConsumeSharedModule {
  return module.type === 'consume-shared-module';
}

function isProvideShared(module: Module): module is ProvideSharedModule {
  return module.type === 'provide-module';
}

const SHARED_SOURCE = /[\\/]shared[\\/]src[\\/]/;
/** Not the libraries shared as lists of their exports: the host always provides them. */
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

/** `shared`'s copies in one chunk: one each would be ten small scripts, beyond a browser's six connections. */
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

  const consumedIn = (chunks: Iterable<Chunk>): ConsumeSharedModule[] => {
    const found = new Map<string, ConsumeSharedModule>();
    for (const chunk of chunks) {
      for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
        if (isConsumeShared(module)) found.set(module.options.shareKey, module);
      }
    }
    return [...found.values()].sort((a, b) => a.options.shareKey.localeCompare(b.options.shareKey));
  };

  // A module the page lacks loads through the remote's provided copy's block, not the consumer's fallback.
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
