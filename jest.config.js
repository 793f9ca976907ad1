/** Unit and component tests of every workspace in one run; browser tests live in e2e/. */
module.exports = {
  projects: ['<rootDir>/shared', '<rootDir>/api', '<rootDir>/host', '<rootDir>/remote-content', '<rootDir>/remote-gifts', '<rootDir>/remote-redeem'],
};
