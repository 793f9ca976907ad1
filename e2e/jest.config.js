/**
 * Browser tests of the built apps, each served by its own production server on a test port.
 * The global setup builds everything once (skip with E2E_SKIP_BUILD=1); each test file starts
 * the servers it needs (support/servers.ts). Run in band: the files share ports.
 */
const { typescriptTransform } = require('../jest.preset.js');

module.exports = {
  displayName: 'e2e',
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  globalSetup: '<rootDir>/support/global-setup.ts',
  testTimeout: 60000,
  transform: typescriptTransform,
};
