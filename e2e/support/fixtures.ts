/**
 * The suite's one base of fixtures: every test file imports `test` and `expect` from here.
 *
 * - `servers` (worker): the production servers of the worker's port block (test-env.ts), started
 *   once per worker and shared by the files it runs. A file that needs them otherwise (other
 *   settings, a subset, none) says so with `test.use({ serverOptions: … })` at its top: that
 *   gives it a worker of its own, whose servers it may stop and restart, ended with the file.
 *   A file on the shared servers that tries to change them fails at once (servers.ts).
 * - `browser` (worker): Debian's chromium, launched by @playwright/test (playwright.config.ts).
 * - `context`, `page` (test): a fresh visitor per test, prepared to count what the suite counts;
 *   `watch` is what was seen on `page` (browser.ts).
 * - `gift` (test): a gift won and a redeem session opened through the API, for this test only.
 */
import { test as base, expect } from '@playwright/test';
import { openRedeemSession, winGift } from './api';
import { prepareContext, watchPage, type PageWatch } from './browser';
import { SHARED_SERVERS, startServerSet, type ServerSetOptions } from './servers';
import { HOST_ORIGIN } from './test-env';

export interface Gift {
  giftId: string;
  redeemId: string;
}

interface TestFixtures {
  watch: PageWatch;
  gift: Gift;
}

interface WorkerFixtures {
  serverOptions: ServerSetOptions;
  servers: void;
}

/** Servers of the worker: the API starts a whole PostgreSQL (PGlite), slow on a busy machine. */
const SERVERS_TIMEOUT_MS = 120_000;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  serverOptions: [SHARED_SERVERS, { scope: 'worker', option: true }],
  servers: [
    async ({ serverOptions }, use) => {
      const stop = await startServerSet(serverOptions);
      await use();
      await stop();
    },
    { scope: 'worker', auto: true, timeout: SERVERS_TIMEOUT_MS },
  ],
  baseURL: async ({}, use) => use(HOST_ORIGIN),
  context: async ({ context }, use) => {
    await prepareContext(context);
    await use(context);
  },
  watch: async ({ page }, use) => use(watchPage(page)),
  gift: async ({}, use) => {
    const giftId = await winGift();
    await use({ giftId, redeemId: await openRedeemSession(giftId) });
  },
});

export { expect };
