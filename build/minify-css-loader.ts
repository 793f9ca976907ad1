/**
 * A webpack loader that minifies a stylesheet with esbuild before css-loader reads it, for
 * production builds: style-loader puts each stylesheet into the part's JavaScript as a string,
 * which the JavaScript minifier leaves as it is, comments and indentation included.
 */
import { transformSync } from 'esbuild';
import type { LoaderContext } from 'webpack';

/** This loader's path, for a rule's `use`: the config imports it, so its source is part of the cache's version. */
export const MINIFY_CSS_LOADER = __filename;

export default function minifyCssLoader(this: LoaderContext<object>, source: string): string {
  return transformSync(source, { loader: 'css', minify: true, sourcefile: this.resourcePath }).code;
}
