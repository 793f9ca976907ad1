const { dirname, join } = require('node:path');
const preset = require('../jest.preset.js');

const base = preset(__dirname);

module.exports = {
  ...base,
  moduleNameMapper: {
    ...base.moduleNameMapper,
    // marked ships only as an ES module, which jest's CommonJS runtime cannot load; its UMD
    // build is the same code. The subpath is not exported, hence the path.
    '^marked$': join(dirname(require.resolve('marked/package.json')), 'lib', 'marked.umd.js'),
  },
};
