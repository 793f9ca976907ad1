/**
 * A TypeScript transformer for ts-loader that leaves in only webpack's magic comments, the ones
 * in an `import()` call (`import(/* webpackChunkName: "mixpanel" *\/ 'mixpanel-browser')`).
 *
 * Every other comment goes: webpack splits chunks by the modules' sizes before minification, so
 * doc comments alone would change which chunks a part has. TypeScript's own `removeComments`
 * cannot be used for that, since it takes the magic comments too, and with them the names of the
 * chunks they name (`mixpanel.<hash>.js`, `crisp.<hash>.js`, `svg-sanitizer.<hash>.js`).
 */
import ts from 'typescript';

function isDynamicImport(node: ts.Node): node is ts.CallExpression {
  return ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword;
}

export const webpackMagicCommentsOnly: ts.TransformerFactory<ts.SourceFile> = (context) => (sourceFile) => {
  const kept = new Set<ts.Node>();
  const visit = (node: ts.Node): ts.Node => {
    if (isDynamicImport(node)) node.arguments.forEach((argument) => kept.add(argument));
    // The transformer runs first (`before`): the nodes are the parser's, with no flags to keep.
    if (!kept.has(node)) ts.setEmitFlags(node, ts.EmitFlags.NoComments);
    return ts.visitEachChild(node, visit, context);
  };
  return ts.visitEachChild(sourceFile, visit, context);
};
