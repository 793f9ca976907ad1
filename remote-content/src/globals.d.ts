/**
 * Webpack's runtime public path: with `publicPath: 'auto'`, the folder remoteEntry.js was loaded
 * from. Undefined outside webpack (under jest), hence the `| undefined`.
 */
declare const __webpack_public_path__: string | undefined;
