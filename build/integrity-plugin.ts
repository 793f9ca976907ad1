/**
 * Subresource Integrity for a remote's scripts (docs/decisions/0019-remote-code-integrity.md).
 *
 * - Every JavaScript file of the build gets the sha384 digest of the bytes it is emitted with
 *   (after minification and after webpack has put the real content hashes into the file names),
 *   kept in its asset info as `integrity`.
 * - The remote's `mf-manifest.json` lists them (`integrity`, by file name): the host loads
 *   `remoteEntry.js`, and the chunks it preloads, with them.
 * - The webpack runtime in each runtime chunk (remoteEntry.js, the standalone page's main.js)
 *   loads its chunks with `__webpack_require__.l`; this plugin gives it the digest of every chunk
 *   it can load and has each `<script>` carry its chunk's `integrity`. The digests are inside the
 *   runtime chunk, so the entry's own integrity covers them: a browser that ran a verified
 *   remoteEntry.js runs only the chunks that build made. A page still running an earlier build's
 *   entry checks that build's chunks (kept by the deploy, under their own names) against that
 *   build's digests.
 *
 * webpack-subresource-integrity does the same for plain builds, but leaves unresolved placeholders
 * in a federated remote's runtime chunks (its open issue 176), hence this plugin.
 */
import { createHash } from 'node:crypto';
import type { Asset, Chunk, Compilation, Compiler } from 'webpack';
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

export class RemoteIntegrityPlugin {
  apply(compiler: Compiler): void {
    const { Compilation, RuntimeGlobals, RuntimeModule, Template, sources, WebpackError } = compiler.webpack;
    const { LoadScriptRuntimeModule } = compiler.webpack.runtime;
    const { JavascriptModulesPlugin } = compiler.webpack.javascript;

    if (compiler.options.output.crossOriginLoading !== 'anonymous') {
      throw new Error(
        `${PLUGIN} needs output.crossOriginLoading 'anonymous': a script with integrity is fetched with CORS`,
      );
    }

    /** `__webpack_require__.sriHashes`: every chunk this runtime can load, its digest still a placeholder. */
    class IntegrityMapRuntimeModule extends RuntimeModule {
      constructor() {
        super('subresource integrity', RuntimeModule.STAGE_BASIC);
      }

      override generate(): string {
        const chunk = this.chunk as Chunk;
        const chunkGraph = this.chunkGraph ?? this.compilation?.chunkGraph;
        const map: Record<string, string> = {};
        for (const loadable of [...chunk.getAllAsyncChunks()].sort((a, b) =>
          String(a.id).localeCompare(String(b.id)),
        )) {
          if (loadable.id === null || !chunkGraph || !JavascriptModulesPlugin.chunkHasJs(loadable, chunkGraph))
            continue;
          map[String(loadable.id)] = placeholderFor(loadable.id);
        }
        return `${INTEGRITY_MAP} = ${JSON.stringify(map)};`;
      }
    }

    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.runtimeRequirementInTree.for(RuntimeGlobals.loadScript).tap(PLUGIN, (chunk) => {
        compilation.addRuntimeModule(chunk, new IntegrityMapRuntimeModule());
      });
      // After `script.src` and webpack's own `script.crossOrigin` (output.crossOriginLoading).
      // `chunkId` is undefined for a script that is no chunk of this build (none in a remote).
      // A chunk without a digest fails closed, as the host refuses a script no manifest gives a
      // digest for: its script carries a digest no bytes have, so the browser never runs it and
      // the load fails like a download (retries, the reload guard, the route's in-layout error).
      LoadScriptRuntimeModule.getCompilationHooks(compilation).createScript.tap(PLUGIN, (source) =>
        Template.asString([
          source,
          'if (chunkId !== undefined) {',
          Template.indent([
            `if (!${INTEGRITY_MAP}[chunkId]) console.error(${JSON.stringify(`[integrity] ${compilation.outputOptions.uniqueName || 'this remote'}: chunk `)} + chunkId + ' has no digest in this build, so it is refused: ' + url);`,
            `script.integrity = ${INTEGRITY_MAP}[chunkId] || ${JSON.stringify(REFUSED_INTEGRITY)};`,
            "script.crossOrigin = 'anonymous';",
          ]),
          '}',
        ]),
      );

      // After minification (OPTIMIZE_SIZE) and RealContentHashPlugin (OPTIMIZE_HASH), which
      // renames chunks and rewrites the hashes in the runtime chunks: the bytes are final.
      compilation.hooks.processAssets.tap(
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_HASH + 1 },
        () => recordIntegrity(compilation),
      );
      // After @module-federation/enhanced has written the manifest (OPTIMIZE_TRANSFER).
      compilation.hooks.processAssets.tap({ name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_REPORT - 1 }, () => {
        const asset = compilation.getAsset(MANIFEST);
        if (!asset) return;
        const manifest = JSON.parse(asset.source.source().toString()) as Record<string, unknown>;
        manifest[INTEGRITY_FIELD] = buildIntegrity(compilation);
        compilation.updateAsset(MANIFEST, new sources.RawSource(JSON.stringify(manifest, null, 2)));
      });
      // Nothing may change a script after its digest was taken: the browser would refuse it.
      compilation.hooks.afterProcessAssets.tap(PLUGIN, () => {
        for (const asset of compilation.getAssets()) {
          const recorded = integrityOf(asset);
          if (recorded && recorded !== sha384Integrity(asset.source.buffer())) {
            compilation.errors.push(
              new WebpackError(`${PLUGIN}: ${asset.name} changed after its integrity was recorded`),
            );
          }
        }
      });
    });

    function recordIntegrity(compilation: Compilation): void {
      const record = (file: string): string => {
        const asset = compilation.getAsset(file);
        if (!asset) throw new Error(`${file} is not an asset of this build`);
        const integrity = sha384Integrity(asset.source.buffer());
        compilation.updateAsset(file, asset.source, { integrity });
        return integrity;
      };
      const byChunkId = new Map<string, string>();
      const runtimeChunks: Chunk[] = [];
      // The chunks the runtimes load first: no chunk's bytes hold another's digest.
      for (const chunk of compilation.chunks) {
        if (chunk.hasRuntime()) {
          runtimeChunks.push(chunk);
          continue;
        }
        for (const file of chunk.files) {
          if (!SCRIPT_FILE.test(file)) continue;
          const integrity = record(file);
          if (chunk.id !== null) byChunkId.set(String(chunk.id), integrity);
        }
      }
      // Then each runtime chunk, its placeholders replaced by the digests of the chunks it loads.
      for (const chunk of runtimeChunks) {
        for (const file of chunk.files) {
          if (!SCRIPT_FILE.test(file)) continue;
          const asset = compilation.getAsset(file);
          if (!asset) continue;
          const code = asset.source.source().toString();
          const replaced = new sources.ReplaceSource(asset.source);
          const missing: string[] = [];
          for (const match of code.matchAll(PLACEHOLDER)) {
            const chunkId = Buffer.from(match[1] as string, 'hex').toString();
            const integrity = byChunkId.get(chunkId);
            if (!integrity) missing.push(chunkId);
            else replaced.replace(match.index, match.index + match[0].length - 1, integrity);
          }
          if (missing.length > 0) {
            compilation.errors.push(
              new WebpackError(`${PLUGIN}: ${file} loads chunks that have no script file: ${missing.join(', ')}`),
            );
          }
          compilation.updateAsset(file, replaced);
          record(file);
        }
      }
      // The scripts that belong to no chunk (the standalone page's federation runtime).
      for (const asset of compilation.getAssets()) {
        if (SCRIPT_FILE.test(asset.name) && !integrityOf(asset)) record(asset.name);
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
  }
}
