/**
 * Subresource Integrity for a remote's scripts (docs/decisions/0019-remote-code-integrity.md):
 * every script's sha384 digest of its final bytes, listed in `mf-manifest.json` for the host,
 * and written into each runtime chunk for the chunks it loads, so a verified remoteEntry.js runs
 * only the chunks its own build made. webpack-subresource-integrity leaves unresolved
 * placeholders in a federated remote's runtime chunks.
 */
import { createHash } from 'node:crypto';
import type { Asset, Chunk, Compilation, Compiler, sources as Sources } from 'webpack';
import { INTEGRITY_FIELD } from 'shared/remote-manifest';

const PLUGIN = 'RemoteIntegrityPlugin';
const MANIFEST = 'mf-manifest.json';
/** The runtime's chunk id → integrity map. */
const INTEGRITY_MAP = '__webpack_require__.sriHashes';
/** What the digests are computed over: the files a browser runs as scripts. */
const SCRIPT_FILE = /\.m?js$/;
/** A chunk's digest inside a runtime chunk until the chunk's bytes are final: its id in hex. */
const PLACEHOLDER = /__remote_integrity_([0-9a-f]+)__/g;

/**
 * The integrity a chunk without a digest is loaded with: well formed (a browser ignores a
 * malformed one, and would run the script), and the digest of no script (48 zero bytes).
 */
export const REFUSED_INTEGRITY = `sha384-${'A'.repeat(64)}`;

function placeholderFor(chunkId: string | number): string {
  return `__remote_integrity_${Buffer.from(String(chunkId)).toString('hex')}__`;
}

/** The `integrity` attribute's value for these bytes. */
export function sha384Integrity(bytes: Buffer | string): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

function integrityOf(asset: Asset | undefined): string | undefined {
  const value: unknown = asset?.info.integrity;
  return typeof value === 'string' ? value : undefined;
}

type Webpack = Compiler['webpack'];

/** `__webpack_require__.sriHashes`: every chunk this runtime can load, its digest still a placeholder. */
function integrityMapModule({ RuntimeModule, javascript }: Webpack) {
  return class IntegrityMapRuntimeModule extends RuntimeModule {
    constructor() {
      super('subresource integrity', RuntimeModule.STAGE_BASIC);
    }

    override generate(): string {
      const chunk = this.chunk as Chunk;
      const chunkGraph = this.chunkGraph ?? this.compilation?.chunkGraph;
      const map: Record<string, string> = {};
      const loadable = [...chunk.getAllAsyncChunks()].sort((a, b) => String(a.id).localeCompare(String(b.id)));
      for (const each of loadable) {
        if (each.id === null || !chunkGraph || !javascript.JavascriptModulesPlugin.chunkHasJs(each, chunkGraph))
          continue;
        map[String(each.id)] = placeholderFor(each.id);
      }
      return `${INTEGRITY_MAP} = ${JSON.stringify(map)};`;
    }
  };
}

/**
 * After `script.src` and webpack's own `script.crossOrigin`. `chunkId` is undefined for a script
 * that is no chunk of this build. A chunk without a digest fails closed, as the host refuses a
 * script no manifest gives a digest for: the load fails like a download.
 */
function withScriptIntegrity({ Template }: Webpack, compilation: Compilation, source: string): string {
  const remote = compilation.outputOptions.uniqueName || 'this remote';
  return Template.asString([
    source,
    'if (chunkId !== undefined) {',
    Template.indent([
      `if (!${INTEGRITY_MAP}[chunkId]) console.error(${JSON.stringify(`[integrity] ${remote}: chunk `)} + chunkId + ' has no digest in this build, so it is refused: ' + url);`,
      `script.integrity = ${INTEGRITY_MAP}[chunkId] || ${JSON.stringify(REFUSED_INTEGRITY)};`,
      "script.crossOrigin = 'anonymous';",
    ]),
    '}',
  ]);
}

function recordAsset(compilation: Compilation, file: string): string {
  const asset = compilation.getAsset(file);
  if (!asset) throw new Error(`${file} is not an asset of this build`);
  const integrity = sha384Integrity(asset.source.buffer());
  compilation.updateAsset(file, asset.source, { integrity });
  return integrity;
}

/** A runtime chunk's placeholders replaced by the digests of the chunks it loads; the chunk ids without one. */
function fillPlaceholders(
  ReplaceSource: typeof Sources.ReplaceSource,
  compilation: Compilation,
  file: string,
  byChunkId: ReadonlyMap<string, string>,
): string[] {
  const asset = compilation.getAsset(file);
  if (!asset) return [];
  const code = asset.source.source().toString();
  const replaced = new ReplaceSource(asset.source);
  const missing: string[] = [];
  for (const match of code.matchAll(PLACEHOLDER)) {
    const chunkId = Buffer.from(match[1] as string, 'hex').toString();
    const integrity = byChunkId.get(chunkId);
    if (!integrity) missing.push(chunkId);
    else replaced.replace(match.index, match.index + match[0].length - 1, integrity);
  }
  compilation.updateAsset(file, replaced);
  return missing;
}

/** Chunks without a runtime first (no chunk's bytes hold another's digest), then the runtime chunks, then the rest. */
function recordIntegrity({ sources, WebpackError }: Webpack, compilation: Compilation): void {
  const byChunkId = new Map<string, string>();
  const runtimeChunks = [...compilation.chunks].filter((chunk) => chunk.hasRuntime());
  for (const chunk of compilation.chunks) {
    if (chunk.hasRuntime()) continue;
    for (const file of chunk.files) {
      if (!SCRIPT_FILE.test(file)) continue;
      const integrity = recordAsset(compilation, file);
      if (chunk.id !== null) byChunkId.set(String(chunk.id), integrity);
    }
  }
  for (const chunk of runtimeChunks) {
    for (const file of [...chunk.files].filter((name) => SCRIPT_FILE.test(name))) {
      if (!compilation.getAsset(file)) continue;
      const missing = fillPlaceholders(sources.ReplaceSource, compilation, file, byChunkId);
      if (missing.length > 0) {
        const message = `${PLUGIN}: ${file} loads chunks that have no script file: ${missing.join(', ')}`;
        compilation.errors.push(new WebpackError(message));
      }
      recordAsset(compilation, file);
    }
  }
  // Scripts of no chunk (the standalone page's federation runtime).
  for (const asset of compilation.getAssets()) {
    if (SCRIPT_FILE.test(asset.name) && !integrityOf(asset)) recordAsset(compilation, asset.name);
  }
}

/** The manifest's `integrity`: every script of the build, by file name. */
function buildIntegrity(compilation: Compilation): Record<string, string> {
  const entries = compilation
    .getAssets()
    .flatMap((asset) => {
      const integrity = integrityOf(asset);
      return integrity ? [[asset.name, integrity] as const] : [];
    })
    .sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(entries);
}

function writeManifestIntegrity({ sources }: Webpack, compilation: Compilation): void {
  const asset = compilation.getAsset(MANIFEST);
  if (!asset) return;
  const manifest = JSON.parse(asset.source.source().toString()) as Record<string, unknown>;
  manifest[INTEGRITY_FIELD] = buildIntegrity(compilation);
  compilation.updateAsset(MANIFEST, new sources.RawSource(JSON.stringify(manifest, null, 2)));
}

/** The browser would refuse a script changed after its digest was taken. */
function checkUnchanged({ WebpackError }: Webpack, compilation: Compilation): void {
  for (const asset of compilation.getAssets()) {
    const recorded = integrityOf(asset);
    if (recorded && recorded !== sha384Integrity(asset.source.buffer())) {
      compilation.errors.push(new WebpackError(`${PLUGIN}: ${asset.name} changed after its integrity was recorded`));
    }
  }
}

export class RemoteIntegrityPlugin {
  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    const { Compilation, RuntimeGlobals } = webpack;
    if (compiler.options.output.crossOriginLoading !== 'anonymous') {
      throw new Error(
        `${PLUGIN} needs output.crossOriginLoading 'anonymous': a script with integrity is fetched with CORS`,
      );
    }
    const IntegrityMapRuntimeModule = integrityMapModule(webpack);
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.runtimeRequirementInTree.for(RuntimeGlobals.loadScript).tap(PLUGIN, (chunk) => {
        compilation.addRuntimeModule(chunk, new IntegrityMapRuntimeModule());
      });
      webpack.runtime.LoadScriptRuntimeModule.getCompilationHooks(compilation).createScript.tap(PLUGIN, (source) =>
        withScriptIntegrity(webpack, compilation, source),
      );
      // After minification and RealContentHashPlugin (OPTIMIZE_HASH): the bytes are final.
      compilation.hooks.processAssets.tap(
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_HASH + 1 },
        () => recordIntegrity(webpack, compilation),
      );
      // After @module-federation/enhanced has written the manifest (OPTIMIZE_TRANSFER).
      compilation.hooks.processAssets.tap({ name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_REPORT - 1 }, () =>
        writeManifestIntegrity(webpack, compilation),
      );
      compilation.hooks.afterProcessAssets.tap(PLUGIN, () => checkUnchanged(webpack, compilation));
    });
  }
}
