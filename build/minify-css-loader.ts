/** style-loader puts a stylesheet in a script as a string, which no JS minifier shortens. */
import { transformSync } from 'esbuild';
import type { LoaderContext } from 'webpack';

export const MINIFY_CSS_LOADER = __filename;

export default function minifyCssLoader(this: LoaderContext<object>, source: string): string {
  return transformSync(source, { loader: 'css', minify: true, sourcefile: this.resourcePath }).code;
}
