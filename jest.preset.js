/** The jest settings every workspace shares; each package's jest.config.js calls this. */
const { join } = require('node:path');

/** TypeScript through ts-jest, transpiled only: `npm run typecheck` does the type checking. */
const typescriptTransform = {
  '^.+\\.tsx?$': [
    'ts-jest',
    {
      tsconfig: {
        jsx: 'react-jsx',
        module: 'commonjs',
        moduleResolution: 'node10',
        ignoreDeprecations: '6.0',
        esModuleInterop: true,
        isolatedModules: true,
        types: ['node', 'jest'],
      },
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
