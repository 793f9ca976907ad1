/** The jest settings every workspace shares; each package's jest.config.js calls this. */
const { join } = require('node:path');

/**
 * TypeScript through swc, transpiled only: `npm run typecheck` does the type checking. It hoists
 * `jest.mock` calls above the imports, as TypeScript's own transpiler under ts-jest did, for less
 * CPU on a cold cache (CI's): the whole run took 5.3 CPU-minutes against 5.5.
 */
const typescriptTransform = {
  '^.+\\.tsx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
      sourceMaps: 'inline',
    },
  ],
};

function preset(dir, overrides = {}) {
  return {
    displayName: require(join(dir, 'package.json')).name,
    rootDir: dir,
    testEnvironment: join(__dirname, 'jest.environment.js'),
    testMatch: [
      '<rootDir>/src/**/*.test.ts?(x)',
      '<rootDir>/server/**/*.test.ts?(x)',
      '<rootDir>/build/**/*.test.ts?(x)',
    ],
    setupFilesAfterEnv: [join(__dirname, 'jest.setup.ts')],
    moduleNameMapper: { '\\.css$': join(__dirname, 'jest.style-stub.js') },
    transform: typescriptTransform,
    ...overrides,
  };
}

module.exports = preset;
module.exports.typescriptTransform = typescriptTransform;
/** The setup file of the projects whose tests do real work: a timeout for hangs only. */
module.exports.hangTimeout = join(__dirname, 'scripts', 'jest-timeout.ts');
