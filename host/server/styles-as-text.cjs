// `npm run serve:source`: a stylesheet imported by the app's components (which the server
// renders) is its text, as in the bundled server (scripts/build-server.ts).
const { readFileSync } = require('node:fs');

require.extensions['.css'] = (module, filename) => {
  module.exports = readFileSync(filename, 'utf8');
};
