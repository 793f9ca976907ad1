/** @jest-environment node */
import ts from 'typescript';
import { webpackMagicCommentsOnly } from './magic-comments';

function transpile(source: string): string {
  return ts.transpileModule(source, {
    fileName: 'page.tsx',
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, jsx: ts.JsxEmit.ReactJSX },
    transformers: { before: [webpackMagicCommentsOnly] },
  }).outputText;
}

describe('webpack magic comments only', () => {
  it("keeps a dynamic import's webpack comments, which name its chunk", () => {
    const out = transpile(
      'export const load = () => import(/* webpackChunkName: "mixpanel" */ \'mixpanel-browser\');\n',
    );
    expect(out).toContain('import(/* webpackChunkName: "mixpanel" */ \'mixpanel-browser\')');
  });

  it('drops every other comment: doc comments, line comments, trailing and JSX comments', () => {
    const out = transpile(
      [
        '/** A module. */',
        "import { a } from './a';",
        '// A line comment.',
        'export const b = a + 1; /* trailing */',
        '/** A component. */',
        'export const C = () => <div>{/* in JSX */}{b}</div>;',
        'export function f() {',
        '  // inside',
        '  return b; // after',
        '}',
      ].join('\n'),
    );
    expect(out).not.toMatch(/\/\*|\/\//);
  });
});
