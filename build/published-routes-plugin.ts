/**
 * Puts what a remote offers, its exposed modules and their routes (from its spec:
 * build/spec-origin.ts), into its `mf-manifest.json` (field `routes`,
 * `shared/src/published-routes.ts`), so a host and the API can learn them from the remote they
 * load rather than from their own build
 * (docs/decisions/0045-remotes-publish-their-routes.md). The manifest is what the host trusts
 * by its configured URL, at an allowed origin: the routes ride with the scripts' digests.
 *
 * The build reads its own document back as a host would and fails on any route a host would
 * refuse, so a remote team learns of a bad route from its build, not from the site's logs.
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
  /** `source`: the file the routes come from, for the build's messages. */
  constructor(
    readonly document: PublishedRoutesDocument,
    readonly source = 'shared/src/remotes.ts',
  ) {}

  apply(compiler: Compiler): void {
    const { RawSource } = compiler.webpack.sources;
    const { WebpackError } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tap(
        // After @module-federation/enhanced has written the manifest (OPTIMIZE_TRANSFER), before
        // BuildInfoPlugin adds the build's id (REPORT), which keeps every field.
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

/**
 * The plugin for remote `name`, its document generated from the spec its config gives (`given`)
 * or, for a remote of the registry, from its registry entry.
 */
export function publishedRoutesPlugin(name: string, given?: RemoteSpec, lookup = remoteSpec): PublishedRoutesPlugin {
  const origin = specOrigin(name, given, lookup);
  if (!origin) throw new Error(noSpecMessage(name));
  return new PublishedRoutesPlugin(publishedRoutesOf(name, origin.spec), origin.file);
}
