/**
 * The libraries the browser parts share as a list of their exports (webpack.config.base.ts): each
 * list is what the parts' browser code imports of the library, no more, since every export listed
 * is in the host's main.js, every page's first script.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import * as queryList from '../shared/src/browser/query/tanstack-react-query';
import * as routerList from '../shared/src/browser/router/react-router-dom';
import { REMOTES } from '../shared/src/remotes';

const ROOT = join(__dirname, '..');
/** The browser parts' code: the host's and each remote's `src`, and `shared`'s. */
const BROWSER_SOURCES = [
  'host/src',
  ...Object.values(REMOTES).map((remote) => `${remote.packageDir}/src`),
  'shared/src',
];
/** What never reaches a browser: tests, test helpers, `shared`'s Node-only code. */
const NOT_BROWSER = /\.test\.tsx?$|(^|\/)test-utils\.tsx?$|(^|\/)(testing|node)\//;

function browserFiles(): string[] {
  return BROWSER_SOURCES.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
      .map((file) => join(ROOT, dir, file))
      .filter((file) => !NOT_BROWSER.test(relative(ROOT, file))),
  );
}

/** The values (not types) `files` import from `library` by name, but in the list itself. */
function importedValues(files: readonly string[], library: string, list: string): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (file === list || !text.includes(`'${library}'`)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      if (statement.moduleSpecifier.text !== library || statement.importClause?.isTypeOnly) continue;
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        if (!element.isTypeOnly) names.add((element.propertyName ?? element.name).text);
      }
    }
  }
  return [...names].sort();
}

describe('the libraries shared as a list of their exports', () => {
  const files = browserFiles();

  it.each([
    ['react-router-dom', routerList, 'shared/src/browser/router/react-router-dom.ts'],
    ['@tanstack/react-query', queryList, 'shared/src/browser/query/tanstack-react-query.ts'],
  ])('%s: the list is what browser code imports of it, no more', (library, list, listFile) => {
    expect(Object.keys(list).sort()).toEqual(importedValues(files, library, join(ROOT, listFile)));
  });
});
