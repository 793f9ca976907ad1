const preset = require('../jest.preset.js');

module.exports = preset(__dirname, {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  setupFilesAfterEnv: [preset.hangTimeout],
  transform: {
    ...preset.typescriptTransform,
    '/node_modules/@electric-sql/pglite/.+\\.cjs$': '<rootDir>/test/support/commonjs-transform.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!@electric-sql/pglite/)'],
  // One real PostgreSQL server for the whole run (TEST_DATABASE_URL, or a throwaway cluster).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
});
