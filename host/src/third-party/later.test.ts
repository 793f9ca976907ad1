/** @jest-environment node */
/**
 * What the page's first script holds: the modules `src/index.ts` imports, and theirs, not
 * counting `import()`. The third parties' code and the consent banner come after the first page,
 * in a chunk of their own (later.ts), stylesheets included.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SRC = join(__dirname, '..');

/** The host's own module `specifier` names from `file`, if it is one (a relative import). */
function resolveOwn(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(file), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
    (candidate) => /\.(tsx?|css)$/.test(candidate) && existsSync(candidate),
  );
}

/** The host's own modules `entry` imports statically, and theirs, relative to src/. */
function firstScriptModules(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.endsWith('.css')) return;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      if (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly) continue;
      const own = resolveOwn(file, specifier.text);
      if (own) visit(own);
    }
  };
  visit(entry);
  return new Set([...seen].map((file) => relative(SRC, file)));
}

describe("the page's first script", () => {
  const modules = firstScriptModules(join(SRC, 'index.ts'));

  it('holds the app (its start, router and frame)', () => {
    expect([...modules]).toEqual(
      expect.arrayContaining(['bootstrap.tsx', 'router/create-routes.tsx', 'router/root-frame.tsx']),
    );
  });

  it("holds none of the third parties' code, nor the consent banner or its styles", () => {
    const later = [...modules].filter((file) =>
      /^third-party\/(analytics\/(consent-banner\.|start-analytics|mixpanel|tag-manager)|chat\/start-chat|later)/.test(
        file,
      ),
    );
    expect(later).toEqual([]);
  });
});
