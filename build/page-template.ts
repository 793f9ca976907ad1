/**
 * The HTML page every part serves (the host's page, a remote's standalone shell), from
 * `shared/src/browser/index.html`: html-webpack-plugin's template syntax, interpolation only
 * (`<%= title %>`), filled in by webpack.config.base.ts rather than by the plugin's own
 * compilation of the template (the factory says why).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Compilation } from 'webpack';

const BROWSER_DIR = join(__dirname, '..', 'shared', 'src', 'browser');
export const PAGE_TEMPLATE = join(BROWSER_DIR, 'index.html');
export const THEME_CSS = join(BROWSER_DIR, 'theme', 'theme.css');

/** `template` with each `<%= name %>` replaced by `values[name]`; a name not given is an error. */
export function renderPageTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/<%=([\s\S]+?)%>/g, (_match, expression: string) => {
    const name = expression.trim();
    if (!Object.hasOwn(values, name)) throw new Error(`the page template asks for "${name}", which nothing gives`);
    return values[name] as string;
  });
}

/**
 * The page with its title and the theme's stylesheet, read afresh for each build: both files are
 * dependencies of the compilation, so `webpack serve` rebuilds when either changes.
 */
export function pageHtml(compilation: Compilation, title: string): string {
  compilation.fileDependencies.addAll([PAGE_TEMPLATE, THEME_CSS]);
  return renderPageTemplate(readFileSync(PAGE_TEMPLATE, 'utf8'), { title, themeCss: readFileSync(THEME_CSS, 'utf8') });
}
