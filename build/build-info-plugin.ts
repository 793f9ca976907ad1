/**
 * Writes `{dir}/latest.json` ({ id, timestamp }) and `{dir}/meta/{id}.json` into a build, so a
 * running host can tell that a newer build of itself or of a remote has been deployed.
 */
import type { Compiler } from 'webpack';
import type { BuildInfo, BuildMeta } from 'shared/build-info';

export interface BuildInfoOptions extends BuildInfo {
  app: string;
  version: string;
  /** Folder inside the output: `builds` for remotes, `_app/builds` for the host. */
  dir: string;
}

const PLUGIN = 'BuildInfoPlugin';

export class BuildInfoPlugin {
  constructor(private readonly options: BuildInfoOptions) {}

  apply(compiler: Compiler): void {
    const { RawSource } = compiler.webpack.sources;
    const { id, timestamp, app, version, dir } = this.options;
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: PLUGIN, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
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
          const latest: BuildInfo = { id, timestamp };
          const meta: BuildMeta = {
            id,
            timestamp,
            app,
            version,
            files,
            ...(Object.keys(integrity).length > 0 ? { integrity } : {}),
          };
          compilation.emitAsset(`${dir}/latest.json`, new RawSource(`${JSON.stringify(latest)}\n`));
          compilation.emitAsset(`${dir}/meta/${id}.json`, new RawSource(`${JSON.stringify(meta, null, 2)}\n`));
        },
      );
    });
  }
}
