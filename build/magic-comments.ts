/**
 * Keeps only webpack's magic comments: chunks are split by size before minification, so doc
 * comments would change a part's chunks; `removeComments` would take the chunk names too.
 */
import ts from 'typescript';

function isDynamicImport(node: ts.Node): node is ts.CallExpression {
  return ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword;
}

export const webpackMagicCommentsOnly: ts.TransformerFactory<ts.SourceFile> = (context) => (sourceFile) => {
  const kept = new Set<ts.Node>();
  const visit = (node: ts.Node): ts.Node => {
    if (isDynamicImport(node)) node.arguments.forEach((argument) => kept.add(argument));
    if (!kept.has(node)) ts.setEmitFlags(node, ts.EmitFlags.NoComments);
    return ts.visitEachChild(node, visit, context);
  };
  return ts.visitEachChild(sourceFile, visit, context);
};
