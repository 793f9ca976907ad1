/** The HTML page every part serves, from `shared/src/browser/index.html`, interpolation only. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Compilation } from 'webpack';

const BROWSER_DIR = join(__dirname, '..', 'shared', 'src', 'browser');
export const PAGE_TEMPLATE = join(BROWSER_DIR, 'index.html');
export const THEME_CSS = join(BROWSER_DIR, 'theme', 'theme.css');

export function renderPageTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/<%=([\s\S]+?)%>/g, (_match, expression: string) => {
    const name = expression.trim();
    if (!Object.hasOwn(values, name)) throw new Error(`the page template asks for "${name}", which nothing gives`);
    return values[name] as string;
  });
}

/** Both files are dependencies of the compilation: `webpack serve` rebuilds on either. */
export function pageHtml(compilation: Compilation, title: string): string {
  compilation.fileDependencies.addAll([PAGE_TEMPLATE, THEME_CSS]);
  return renderPageTemplate(readFileSync(PAGE_TEMPLATE, 'utf8'), { title, themeCss: readFileSync(THEME_CSS, 'utf8') });
}
