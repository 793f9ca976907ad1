/**
 * A remote's routes in its `mf-manifest.json` (docs/decisions/0045-remotes-publish-their-routes.md),
 * read back as a host would: a route a host would refuse fails the build, not the site.
 */
import type { Compiler } from 'webpack';
import {
  PUBLISHED_ROUTES_FIELD,
  publishedRoutesOf,
  readPublishedRoutes,
  type PublishedRoutesDocument,
} from 'shared/published-routes';
import { remoteSpec, type RemoteSpec } from 'shared/remotes';
import { noSpecMessage, specOrigin } from './spec-origin';

const PLUGIN = 'PublishedRoutesPlugin';
const MANIFEST = 'mf-manifest.json';

export class PublishedRoutesPlugin {
  constructor(
    readonly document: PublishedRoutesDocument,
    readonly source = 'shared/src/remotes.ts',
  ) {}

  apply(compiler: Compiler): void {
    const { RawSource } = compiler.webpack.sources;
    const { WebpackError } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tap(
        // After the manifest is written (OPTIMIZE_TRANSFER), before BuildInfoPlugin (REPORT).
        { name: PLUGIN, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT - 1 },
        () => {
          const { refusals } = readPublishedRoutes(this.document, { remote: this.document.remote });
          for (const { module, path, reason } of refusals) {
            const where = [module, path].filter(Boolean).join(' ');
            compilation.errors.push(
              new WebpackError(
                `${PLUGIN}: a host would refuse ${where ? `${where} of ` : ''}the ${this.document.remote} remote's spec (${this.source}): ${reason}`,
              ),
            );
          }
          const asset = compilation.getAsset(MANIFEST);
          if (!asset) return;
          const manifest = JSON.parse(asset.source.source().toString()) as Record<string, unknown>;
          manifest[PUBLISHED_ROUTES_FIELD] = this.document;
          compilation.updateAsset(MANIFEST, new RawSource(JSON.stringify(manifest, null, 2)));
        },
      );
    });
  }
}

export function publishedRoutesPlugin(name: string, given?: RemoteSpec, lookup = remoteSpec): PublishedRoutesPlugin {
  const origin = specOrigin(name, given, lookup);
  if (!origin) throw new Error(noSpecMessage(name));
  return new PublishedRoutesPlugin(publishedRoutesOf(name, origin.spec), origin.file);
}
