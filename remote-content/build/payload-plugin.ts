/**
 * Publishes each content page's Markdown as `payload/{page}.json` in the build, with the
 * operator's details filled in, and has `webpack serve` rebuild when a Markdown file changes.
 * A page that would still show a placeholder fails the build.
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Compilation, Compiler } from 'webpack';
import type { ContentPayload } from '../src/features/content/api/content-payload';
import { markdownToPayload } from './markdown-to-payload';
import { fillOperator, type OperatorValues } from './operator';
import { findPlaceholders } from './placeholders';

export interface PayloadPluginOptions {
  /** Absolute path of the folder holding `{page}.md`. */
  contentDir: string;
  pages: readonly string[];
  /** What `{{operatorName}}` and the other settings read in the pages (`readOperator`). */
  operator: OperatorValues;
  /** Folder inside the output. */
  outputDir?: string;
}

const PLUGIN = 'PayloadPlugin';
const OUTPUT_DIR = 'payload';

/** The payloads, by page, as the prerender reads them from the build (`PrerenderPluginOptions.inputs`). */
export function payloadInputs(pages: readonly string[], outputDir = OUTPUT_DIR): Record<string, string> {
  return Object.fromEntries(pages.map((page) => [page, `${outputDir}/${page}.json`]));
}

/** A page's payload as published: the operator's details filled in, no placeholder left. */
export function pagePayload(markdown: string, operator: OperatorValues): ContentPayload {
  const payload = markdownToPayload(fillOperator(markdown, operator));
  const placeholders = findPlaceholders(payload);
  if (placeholders.length > 0) throw new Error(`placeholder text would reach the page: ${placeholders.join('; ')}`);
  return payload;
}

export class PayloadPlugin {
  constructor(private readonly options: PayloadPluginOptions) {}

  apply(compiler: Compiler): void {
    const { Compilation: CompilationClass, WebpackError, sources } = compiler.webpack;
    const { contentDir, pages, operator, outputDir = OUTPUT_DIR } = this.options;

    const publish = async (compilation: Compilation, page: string): Promise<void> => {
      const file = join(contentDir, `${page}.md`);
      const name = relative(compiler.context, file);
      // Added before reading, so that creating a missing file also triggers a rebuild.
      compilation.fileDependencies.add(file);
      try {
        const payload = pagePayload(await readFile(file, 'utf8'), operator);
        compilation.emitAsset(`${outputDir}/${page}.json`, new sources.RawSource(`${JSON.stringify(payload)}\n`));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        compilation.errors.push(new WebpackError(`${PLUGIN}: ${name}: ${reason}`));
      }
    };

    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        // Early enough that the build-info file list, written at the report stage, includes them.
        { name: PLUGIN, stage: CompilationClass.PROCESS_ASSETS_STAGE_ADDITIONAL },
        async () => {
          await Promise.all(pages.map((page) => publish(compilation, page)));
        },
      );
    });
  }
}
