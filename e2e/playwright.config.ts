/**
 * The browser suite: @playwright/test driving Debian's Chromium headless shell against the built apps, each
 * served by its own production server. The global setup builds everything once (skip with
 * E2E_SKIP_BUILD=1); each worker runs its servers on a port block of its own (support/test-env.ts)
 * and the files share them (support/fixtures.ts). A flaky test is a bug to fix: no retries.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from 'testbed/chromium';
import { RESULTS_DIR } from './support/test-env';

/**
 * One worker per core, at least two: the suite keeps every core busy on its own (browsers, servers,
 * builds), so a worker more than the cores only divides them further (a load average of 20-30 on
 * two cores), and tests that fit their minute with a core's share overran it with a third's.
 */
function workers(): number {
  const raw = process.env.E2E_WORKERS;
  if (raw === undefined || raw === '') return Math.max(2, availableParallelism());
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 16) throw new Error(`E2E_WORKERS must be 1 to 16, got "${raw}"`);
  return count;
}

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  globalSetup: './support/global-setup.ts',
  workers: workers(),
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: join(RESULTS_DIR, 'tests'),
  reporter: [['list'], ['html', { open: 'never', outputFolder: join(RESULTS_DIR, 'report') }]],
  use: {
    launchOptions: { executablePath: TEST_CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
    colorScheme: 'light',
    viewport: { width: 1280, height: 800 },
    // Actions, network, console and sources of every test, kept when it fails. No screencast and
    // no DOM snapshot per action: recording them took about 15 % of the CPU of the page-heavy files
    // (smoke, product, prerender, chat), for every test, failing or not. The failure's screenshot
    // is below, and its page's accessibility tree is in the failure's error-context.md.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: true },
    screenshot: 'only-on-failure',
  },
});
