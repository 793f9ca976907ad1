const preset = require('../jest.preset.js');

module.exports = preset(__dirname, {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  setupFilesAfterEnv: [],
});
