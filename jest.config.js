/** Unit and component tests of every workspace in one run; browser tests live in e2e/. */
const preset = require('./jest.preset.js');

module.exports = {
  projects: [
    '<rootDir>/shared',
    '<rootDir>/api',
    '<rootDir>/host',
    '<rootDir>/remote-content',
    '<rootDir>/remote-gifts',
    '<rootDir>/remote-redeem',
    // The root's own scripts (npm start's runner, the test set-up).
    preset(__dirname, { displayName: 'scripts', roots: ['<rootDir>/scripts'], testMatch: ['<rootDir>/scripts/**/*.test.ts'], testEnvironment: 'node', setupFilesAfterEnv: [] }),
  ],
};
