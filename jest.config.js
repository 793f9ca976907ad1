/** Unit and component tests of every workspace in one run; browser tests live in e2e/. */
const { join } = require('node:path');
const { availableParallelism } = require('node:os');
const preset = require('./jest.preset.js');
// The registry of remotes is TypeScript: tsx's API loads it, then its hooks are removed again,
// since left in place they break the resolution of jest's own TypeScript global set-ups.
const tsx = require('tsx/cjs/api').register({ namespace: 'jest-config' });
const { REMOTES } = tsx.require('./shared/src/remotes.ts', __filename);
tsx.unregister();

module.exports = {
  // jest's default, one worker less than the cores, is a single worker on a 2-core machine; the
  // suites spend much of their time waiting on servers, processes and databases, so one more
  // worker than the cores keeps them busy (on 2 cores: 192 s against 238 s with two).
  maxWorkers: availableParallelism() + 1,
  // A worker ends when its event loop is empty, then frees its heap (300-450 MB after the jsdom
  // files): 0.6 s for the component tests' workers, 0.9-1.2 s after a whole run, past jest's 500 ms
  // default, so every run ended with "a worker process has failed to exit gracefully" though no
  // handle was left open. A worker a leaked handle keeps alive is still force-exited, and named so.
  workerGracefulExitTimeout: 5_000,
  projects: [
    '<rootDir>/shared',
    '<rootDir>/server',
    '<rootDir>/testbed',
    '<rootDir>/api',
    '<rootDir>/host',
    ...Object.values(REMOTES).map((remote) => `<rootDir>/${remote.packageDir}`),
    // The root's own code: scripts (npm start's runner, the test set-up), build/ (what every part's
    // webpack build uses) and deploy/ (publishing and rolling back a remote's build).
    preset(__dirname, {
      displayName: 'scripts',
      roots: ['<rootDir>/scripts', '<rootDir>/build', '<rootDir>/deploy'],
      testMatch: ['<rootDir>/{scripts,build,deploy}/**/*.test.ts?(x)'],
      testEnvironment: 'node',
      setupFilesAfterEnv: [preset.hangTimeout],
    }),
    // The browser suite's own helpers (its port blocks, its server sets), and staging's and
    // traffic's command lines, what they print, and the traffic's journey and signals, which
    // start Debian's Chromium against a stand-in site.
    preset(join(__dirname, 'e2e'), {
      roots: ['<rootDir>/support', '<rootDir>/staging'],
      testMatch: ['<rootDir>/{support,staging}/**/*.test.ts'],
      testEnvironment: 'node',
      setupFilesAfterEnv: [],
    }),
    // The bench's own logic (medians, round trips, its command line, the API rounds it quotes); the
    // bench itself runs on demand (`npm run bench`), and its smoke run among the browser tests
    // (e2e/tests/bench.spec.ts).
    preset(join(__dirname, 'bench'), {
      roots: ['<rootDir>/src', '<rootDir>/api'],
      testMatch: ['<rootDir>/{src,api}/**/*.test.ts'],
      testEnvironment: 'node',
      setupFilesAfterEnv: [],
    }),
  ],
};
