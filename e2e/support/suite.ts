/**
 * The usual life of a browser test file: every server and one browser for the whole file, a
 * fresh page (with its watcher) for each test, and optionally a real gift and redeem session
 * made through the API.
 */
import type { Page } from 'playwright-core';
import { openRedeemSession, winGift } from './api';
import { launchBrowser, type BrowserSession, type PageWatch } from './browser';
import { startServers, stopAllServers, type StartOptions } from './servers';
import type { ServerName } from './test-env';

export interface Suite {
  readonly browser: BrowserSession;
  readonly page: Page;
  readonly watch: PageWatch;
  /** Filled before the first test when `withGift` is set. */
  readonly ids: { giftId: string; redeemId: string };
}

export interface SuiteOptions {
  withGift?: boolean;
  /** Per-server start options, such as the host's third-party settings. */
  servers?: Partial<Record<ServerName, StartOptions>>;
}

export function browserSuite(options: SuiteOptions = {}): Suite {
  let browser: BrowserSession | undefined;
  let current: { page: Page; watch: PageWatch } | undefined;
  const ids = { giftId: '', redeemId: '' };

  beforeAll(async () => {
    const launching = launchBrowser();
    await Promise.all([startServers(undefined, options.servers), launching]);
    browser = await launching;
    if (options.withGift) {
      ids.giftId = await winGift();
      ids.redeemId = await openRedeemSession(ids.giftId);
    }
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stopAllServers();
  });

  beforeEach(async () => {
    if (!browser) throw new Error('the browser did not start');
    current = await browser.newPage();
  });

  afterEach(async () => {
    await current?.page.unrouteAll({ behavior: 'ignoreErrors' });
    await current?.page.close();
    current = undefined;
  });

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`no ${what}: use it inside a test`);
    return value;
  };
  return {
    get browser() {
      return need(browser, 'browser');
    },
    get page() {
      return need(current, 'page').page;
    },
    get watch() {
      return need(current, 'page').watch;
    },
    ids,
  };
}
