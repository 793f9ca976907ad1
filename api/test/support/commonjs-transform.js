/**
 * Jest transform for PGlite's CommonJS build, which loads Node built-ins with `import("fs")`:
 * jest's CommonJS runtime refuses dynamic import() unless Node runs with
 * --experimental-vm-modules. A `require` of the same built-in is the same module.
 */
const { createHash } = require('node:crypto');

const DYNAMIC_IMPORT = /\bimport\((["'][^"']+["'])\)/g;

module.exports = {
  process(source) {
    // The bundle declares its own `var require` in places, so keep a handle on the module's.
    return {
      code: `const __requireBuiltin = require;${source.replace(DYNAMIC_IMPORT, 'Promise.resolve(__requireBuiltin($1))')}`,
    };
  },
  getCacheKey(source, filename) {
    return createHash('sha256').update('commonjs-transform-1').update(filename).update(source).digest('hex');
  },
};
