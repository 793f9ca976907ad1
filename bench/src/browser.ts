/**
 * Debian's chromium through playwright-core, launched with testbed's flags (the ones the e2e
 * tests use on this machine), and one throttled page per load: a fresh browser context (cold
 * cache, no cookies), CPU 4× slower and a slow 4G network, set through the DevTools protocol.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from 'testbed/chromium';
import { NetworkLog } from './network-log';
import { probeScript } from './probe';

/** Before anything is built or started: without a browser, nothing can be measured. */
export function checkChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no chromium at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
}

/** Lighthouse's mobile ("slow 4G") figures, applied as DevTools throttling. */
export const THROTTLING = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
};

export function describeThrottling(): string {
  const { cpuSlowdown, latencyMs, downloadBitsPerSecond, uploadBitsPerSecond } = THROTTLING;
  return `CPU ${cpuSlowdown}× slower, ${latencyMs} ms latency, ${downloadBitsPerSecond / 1e6} Mbit/s down, ${uploadBitsPerSecond / 1e3} kbit/s up`;
}

/** A phone-sized page, as Lighthouse's mobile preset (412 × 823). */
const CONTEXT_OPTIONS = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  colorScheme: 'light' as const,
};

const browsers = new Set<Browser>();

export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    // bench.ts stops everything on Ctrl-C, browsers included (closeAllBrowsers).
    handleSIGINT: false,
    handleSIGTERM: false,
  });
  browsers.add(browser);
  browser.on('disconnected', () => browsers.delete(browser));
  return browser;
}

/** Closes every browser still open (on Ctrl-C, or a failure), giving each a few seconds. */
export async function closeAllBrowsers(): Promise<void> {
  await Promise.all(
    [...browsers].map((browser) =>
      Promise.race([browser.close(), new Promise((resolve) => setTimeout(resolve, 5_000))]).catch(() => undefined),
    ),
  );
}

export interface ThrottledPage {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  network: NetworkLog;
  close(): Promise<void>;
}

/**
 * A new context and page, throttled, with the probe for `selector` installed and every request
 * recorded, with its initiator's call stack (synchronous frames; async ones too with
 * `traceAsyncStacks`). Requests to `blockedOrigins` fail at once (see bench.ts: the monolith's page must
 * not fetch the federated remotes' files the host's server may name in its HTML).
 */
export async function openThrottledPage(
  browser: Browser,
  selector: string,
  blockedOrigins: readonly string[],
  options: { traceAsyncStacks?: boolean } = {},
): Promise<ThrottledPage> {
  const context = await browser.newContext(CONTEXT_OPTIONS);
  try {
    await context.addInitScript({ content: probeScript(selector) });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const network = new NetworkLog(cdp);
    await cdp.send('Network.enable');
    if (options.traceAsyncStacks) {
      // Initiator stacks then reach back across promises and timers to the code that started
      // them (round-trips.ts). It slows the page's scripts down, the federated build's more.
      await cdp.send('Debugger.enable');
      await cdp.send('Debugger.setAsyncCallStackDepth', { maxDepth: 64 });
    }
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: THROTTLING.latencyMs,
      downloadThroughput: THROTTLING.downloadBitsPerSecond / 8,
      uploadThroughput: THROTTLING.uploadBitsPerSecond / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown });
    if (blockedOrigins.length > 0) {
      await cdp.send('Network.setBlockedURLs', { urls: blockedOrigins.map((origin) => `${origin}/*`) });
    }
    return { context, page, cdp, network, close: () => context.close() };
  } catch (error) {
    await context.close();
    throw error;
  }
}
