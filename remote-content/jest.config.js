const { dirname, join } = require('node:path');
const preset = require('../jest.preset.js');

const base = preset(__dirname);

module.exports = {
  ...base,
  // What webpack's DefinePlugin writes into a build (webpack.config.base.ts).
  globals: { __BUILD_ID__: 'test-build', __BUILD_TIMESTAMP__: Date.UTC(2030, 1, 14, 12) },
  moduleNameMapper: {
    ...base.moduleNameMapper,
    // marked ships only as an ES module, which jest's CommonJS runtime cannot load; its UMD
    // build is the same code. The subpath is not exported, hence the path.
    '^marked$': join(dirname(require.resolve('marked/package.json')), 'lib', 'marked.umd.js'),
  },
};
