/**
 * The real visitors of a chaos run: Chromium pages playing the whole journey in a loop through
 * the public origin (the game, the gift, the redeem form, the voucher), as the topology test's
 * visitor does. Each journey records its time span, whether it reached the voucher, what the page
 * saw go wrong (failed requests, API answers of 500 or more, console and page errors, the error
 * page) and how many documents it loaded beyond the one it asked for: a reload the page made on
 * its own (the reload guard's, after a deploy), and a reload loop when there are more than two.
 * A journey that meets the host's error page ends there, as its visitor would.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser, Locator, Page, Response } from '@playwright/test';
import { errorPage } from '../support/app-page';
import { openSession, type BrowserSession, type PageWatch } from '../support/browser';

export interface BrowserJourney {
  visitor: number;
  startedAt: number;
  endedAt: number;
  ok: boolean;
  /** What went wrong, for the report: the failed step, requests, statuses, errors. */
  problems: string[];
  /** Documents loaded beyond the journey's own navigation. */
  reloads: number;
}

/** More reloads than this in one journey is a loop: the reload guard reloads once per failure. */
export const RELOAD_LOOP_THRESHOLD = 2;
const STEP_TIMEOUT_MS = 30_000;

interface Counts {
  loads: number;
  failed: number;
  problems: number;
}

function counts(watch: PageWatch): Counts {
  return { loads: watch.documentLoads(), failed: watch.failedRequests.length, problems: watch.problems().length };
}

/** The page's API answers of 500 or more, as they come. */
function watchServerErrors(page: Page, into: string[]): void {
  page.on('response', (response: Response) => {
    if (new URL(response.url()).pathname.startsWith('/api/') && response.status() >= 500)
      into.push(`${response.request().method()} ${new URL(response.url()).pathname}: HTTP ${response.status()}`);
  });
}

/** The journey met the host's error page: nothing on it leads on, so waiting out a step's timeout tells nothing more. */
export class ErrorPageMet extends Error {
  override name = 'ErrorPageMet';
}

/**
 * The host's own error page (a route's, or the whole screen's), which carries its status in
 * `data-status`; a remote's inline alert (a play or a redeem that failed) is not one.
 */
function hostErrorPage(page: Page): Locator {
  return errorPage(page).and(page.locator('[data-status]'));
}

/** Waits for `target`, or throws ErrorPageMet as soon as the error page shows instead. */
async function reach(page: Page, target: Locator, timeout: number): Promise<Locator> {
  const shown = hostErrorPage(page).first();
  await target.or(shown).first().waitFor({ timeout });
  if (await shown.isVisible()) {
    const status = (await shown.getAttribute('data-status').catch(() => null)) ?? '?';
    const text = (await shown.innerText().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 120);
    throw new ErrorPageMet(`met the error page (${status}) at ${new URL(page.url()).pathname}: ${text}`);
  }
  return target;
}

/**
 * The whole journey on the pages: the game, a win, the gift, the redeem form, the voucher. Each
 * step waits for its element or the error page, whichever shows first.
 */
export async function playJourney(page: Page, email: string): Promise<void> {
  const timeout = STEP_TIMEOUT_MS;
  const step = (target: Locator) => reach(page, target, timeout);
  await page.goto('/game', { timeout });
  await (await step(page.getByRole('button', { name: 'Box 2' }))).click({ timeout });
  await step(page.getByRole('heading', { name: 'You won!' }));
  await (await step(page.getByRole('link', { name: 'Open your gift' }))).click({ timeout });
  await step(page.getByRole('heading', { name: /^Your gift(:|$)/ }));
  await (await step(page.getByRole('button', { name: 'Redeem', exact: true }))).click({ timeout });
  await step(page.getByRole('heading', { name: 'Redeem your gift' }));
  await page.getByRole('textbox', { name: /Email address/ }).fill(email, { timeout });
  await page.getByRole('checkbox', { name: 'I accept the terms' }).check({ timeout });
  await page.getByRole('button', { name: 'Redeem my gift' }).click({ timeout });
  await step(page.getByRole('group', { name: 'Voucher code' }));
}

/** One visitor's loop until `stop` is aborted, a pause between journeys. */
export async function runBrowserVisitor(
  browser: Browser,
  origin: string,
  visitor: number,
  pauseMs: number,
  journeys: BrowserJourney[],
  stop: AbortSignal,
): Promise<void> {
  let session: BrowserSession | undefined;
  let journeyNumber = 0;
  while (!stop.aborted) {
    session ??= await openSession(browser, { baseURL: origin });
    const { page, watch } = await session.newPage();
    const serverErrors: string[] = [];
    watchServerErrors(page, serverErrors);
    const before = counts(watch);
    const startedAt = Date.now();
    let failure: string | undefined;
    try {
      await playJourney(page, `browser-${visitor}-${++journeyNumber}@example.com`);
    } catch (error) {
      const shown = await page
        .evaluate(() => document.body.innerText)
        .catch(() => '(page gone)')
        .then((text) => text.replace(/\s+/g, ' ').slice(0, 160));
      failure = `${(error as Error).message.split('\n')[0]} (page at ${page.url()} shows "${shown}")`;
    }
    const after = counts(watch);
    const problems = [
      ...(failure ? [failure] : []),
      ...watch.failedRequests.slice(before.failed).map((text) => `failed request: ${text}`),
      ...serverErrors,
      ...watch.problems().slice(before.problems),
    ];
    journeys.push({
      visitor,
      startedAt,
      endedAt: Date.now(),
      ok: failure === undefined,
      problems,
      reloads: Math.max(0, after.loads - before.loads - 1),
    });
    await page.close().catch(() => undefined);
    if (failure) {
      // A fresh visitor after a failed journey, as a person giving up and coming back would be.
      await session.close().catch(() => undefined);
      session = undefined;
    }
    if (!stop.aborted) await delay(pauseMs, undefined, { signal: stop }).catch(() => undefined);
  }
  await session?.close().catch(() => undefined);
}
