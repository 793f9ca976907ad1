/**
 * The suite's one base of fixtures: every test file imports `test` and `expect` from here.
 *
 * - `servers`: the production servers of the worker's port block (test-env.ts), started once per
 *   worker and kept for file after file. A file that needs them otherwise (other settings, a
 *   subset, none, or ones it stops and restarts) says so with `test.use({ serverOptions: … })` at
 *   its top. `serverOptions` is a test option, not a worker one, so every file runs on the same
 *   workers (a worker option set in a file gives that file a worker, and servers, of its own):
 *   before a file's first hook or test, the worker restarts only the servers that differ from what
 *   it asked for, which also undoes whatever the previous file changed (servers.ts,
 *   `useServerSet`). A file on the default servers that tries to change them fails at once.
 * - the progressive-delivery files' nginx topologies, kept from file to file (shared-topology.ts)
 *   and stopped with the servers.
 * - `browser` (worker): Debian's chromium, launched by @playwright/test (playwright.config.ts).
 * - `context`, `page` (test): a fresh visitor per test, prepared to count what the suite counts;
 *   `watch` is what was seen on `page` (browser.ts).
 * - `gift` (test): a gift won and a redeem session opened through the API, for this test only.
 */
import { test as base, expect } from '@playwright/test';
import { openRedeemSession, winGift } from './api';
import { prepareContext, watchPage, type PageWatch } from './browser';
import { stopSharedTopologies } from './shared-topology';
import { SHARED_SERVERS, stopServerSet, useServerSet, type ServerSetOptions } from './servers';
import { HOST_ORIGIN } from './test-env';

export interface Gift {
  giftId: string;
  redeemId: string;
}

interface TestFixtures {
  serverOptions: ServerSetOptions;
  servers: void;
  watch: PageWatch;
  gift: Gift;
}

interface WorkerFixtures {
  serverSet: void;
}

/** Servers of the worker: the API starts a whole PostgreSQL (PGlite), slow on a busy machine. */
const SERVERS_TIMEOUT_MS = 120_000;

/**
 * An automatic fixture set up before every hook (beforeAll and afterAll included) as well as every
 * test: what @playwright/test's own trace and context fixtures use, which its types do not name
 * (only `true`, before tests and each-hooks). The version is pinned (package.json); should an
 * upgrade drop it, a hook that changes a server fails at once (servers.ts, `assertChangeable`).
 */
const ALL_HOOKS_INCLUDED = 'all-hooks-included' as unknown as boolean;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  serverOptions: [SHARED_SERVERS, { option: true }],
  // The worker's servers and its shared topologies, stopped when it ends.
  serverSet: [
    async ({}, use) => {
      await use();
      await Promise.all([stopServerSet(), stopSharedTopologies()]);
    },
    { scope: 'worker' },
  ],
  // Before every hook and test, so before a file's beforeAll too; only the first of a file
  // changes anything.
  servers: [
    async ({ serverOptions, serverSet }, use, testInfo) => {
      void serverSet;
      await useServerSet(testInfo.file, serverOptions);
      await use();
    },
    { auto: ALL_HOOKS_INCLUDED, timeout: SERVERS_TIMEOUT_MS },
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
