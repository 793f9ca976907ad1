/**
 * Browser code takes the contract's types only. One value imported from contract.ts brings its
 * schemas and zod into a page: into the host's main.js, or, for a remote, into a chunk of its own
 * that the page then fetches, since the host does not provide the module (client.ts says why the
 * browser does without the schemas). The values a page needs are in contract-values.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';
import { REMOTES } from '../remotes';

const ROOT = resolve(__dirname, '../../..');
const CONTRACT = join(__dirname, 'contract.ts');
/** Sources that never reach a page: tests and their helpers, and shared's Node code. */
const NOT_IN_PAGES = /(\.test\.tsx?|test-utils\.tsx?|test-fixtures\.ts)$|\/shared\/src\/(node|testing)\//;
const PAGE_SOURCES = ['host/src', 'shared/src', ...Object.values(REMOTES).map(({ packageDir }) => `${packageDir}/src`)];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !NOT_IN_PAGES.test(file));
}

function isContract(file: string, specifier: string): boolean {
  if (specifier === 'shared/api/contract') return true;
  return specifier.startsWith('.') && `${resolve(dirname(file), specifier)}.ts` === CONTRACT;
}

/** What an import or re-export takes at run time: nothing when every name is a type. */
function takesValues(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) {
    const clause = statement.exportClause;
    return (
      !statement.isTypeOnly && !(clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly))
    );
  }
  const clause = statement.importClause;
  if (!clause) return true;
  if (clause.isTypeOnly) return false;
  const names = clause.namedBindings;
  return clause.name !== undefined || !names || !ts.isNamedImports(names) || !names.elements.every((e) => e.isTypeOnly);
}

function contractValueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements
    .filter((statement) => ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))
    .filter(({ moduleSpecifier }) => moduleSpecifier && ts.isStringLiteral(moduleSpecifier))
    .filter((statement) => isContract(file, (statement.moduleSpecifier as ts.StringLiteral).text))
    .filter(takesValues)
    .map((statement) => `${relative(ROOT, file)}: ${statement.getText(source)}`);
}

describe('the API contract in the browser', () => {
  it('is imported for its types only', () => {
    const files = PAGE_SOURCES.flatMap((dir) => sources(join(ROOT, dir))).filter((file) => file !== CONTRACT);
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(contractValueImports)).toEqual([]);
  });
});
