/** A build's `latest.json` and `meta/{id}.json`, and its id in its `mf-manifest.json`. */
import type { Compilation, Compiler } from 'webpack';
import type { BuildInfo, BuildMeta } from 'shared/build-info';
import { DEPLOYMENT_FILE_NAME, META_DIR_NAME } from 'shared/deployment';
import { BUILD_ID_FIELD } from 'shared/remote-manifest';

export interface BuildInfoOptions extends BuildInfo {
  app: string;
  version: string;
  /** `builds`, or `_app/builds` for the host. */
  dir: string;
  /** The host's: the code its server is compiled from too (scripts/build-stamp.ts), so its server can tell. */
  codeVersion?: string;
}

const PLUGIN = 'BuildInfoPlugin';
const MANIFEST = 'mf-manifest.json';

export class BuildInfoPlugin {
  constructor(private readonly options: BuildInfoOptions) {}

  apply(compiler: Compiler): void {
    const { RawSource } = compiler.webpack.sources;
    const { id, timestamp, app, version, dir, codeVersion } = this.options;
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: PLUGIN, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          addBuildId(compilation, id);
          const files = compilation
            .getAssets()
            .map((asset) => asset.name)
            .sort();
          // RemoteIntegrityPlugin's digests, recorded with the build for good.
          const integrity = Object.fromEntries(
            files.flatMap((file) => {
              const asset = compilation.getAsset(file);
              const value: unknown = asset?.info.integrity;
              return typeof value === 'string' ? [[file, value] as const] : [];
            }),
          );
          const code = codeVersion === undefined ? {} : { codeVersion };
          const latest: BuildInfo & { codeVersion?: string } = { id, timestamp, ...code };
          const meta: BuildMeta & { codeVersion?: string } = {
            id,
            timestamp,
            app,
            version,
            ...code,
            files,
            ...(Object.keys(integrity).length > 0 ? { integrity } : {}),
          };
          compilation.emitAsset(`${dir}/${DEPLOYMENT_FILE_NAME}`, new RawSource(`${JSON.stringify(latest)}\n`));
          compilation.emitAsset(
            `${dir}/${META_DIR_NAME}/${id}.json`,
            new RawSource(`${JSON.stringify(meta, null, 2)}\n`),
          );
        },
      );
    });
  }
}

/**
 * The manifest's `buildId`, added to what the federation plugin wrote (OPTIMIZE_TRANSFER) and
 * the integrity and shared-fallback plugins added (REPORT - 1): this runs at REPORT, after them,
 * and keeps every field they wrote. The manifest is no script, so no integrity covers it.
 */
function addBuildId(compilation: Compilation, id: string): void {
  const asset = compilation.getAsset(MANIFEST);
  if (!asset) return;
  const manifest = JSON.parse(asset.source.source().toString()) as Record<string, unknown>;
  manifest[BUILD_ID_FIELD] = id;
  compilation.updateAsset(
    MANIFEST,
    new compilation.compiler.webpack.sources.RawSource(JSON.stringify(manifest, null, 2)),
  );
}
