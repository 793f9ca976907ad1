/**
 * Visitors for a staging (or any site of ours): each a fresh context of headless Chromium (no
 * cookies, so a fresh cohort: a canary at N % gets its share) with an address of its own in
 * X-Forwarded-For (nginx passes it on, the API counts distinct clients by it), opening `/` and
 * playing the chaos run's journey on the pages; each page is hidden before it is left, so its
 * telemetry goes with the visitor's address (and the ticket the host's server signed). They arrive at a
 * steady rate; what they met is counted per minute (traffic-stats.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser, Page } from '@playwright/test';
import { openSession } from '../support/browser';
import { ErrorPageMet, playJourney } from '../chaos/browsers';
import { emptyMinute, type MinuteStats } from './traffic-stats';

export interface TrafficOptions {
  origin: string;
  /** New visitors a minute. */
  rate: number;
  /** Visitors at once at most: past it, arrivals wait their turn. */
  concurrency: number;
  /** Once stopped, how long the visitors under way may take to finish before they are left. */
  drainMs: number;
}

export interface TrafficHooks {
  /** At the end of each minute, and for the last, partial one once the run ends. */
  report(minute: number, stats: MinuteStats): void;
  /** Once `stop` is aborted, with the number of visitors under way. */
  stopping?(underWay: number): void;
}
/** The page's inline configuration (shared/page-data's; the browser tests import no source). */
const CONFIG_ELEMENT_ID = 'gift-box-config';
/** Where the page sends its telemetry (shared/telemetry's). */
const TELEMETRY_PATH = '/api/telemetry';
/** How long a hidden page may take to send its telemetry. */
const TELEMETRY_WAIT_MS = 10_000;

let visitorNumber = 0;

/** A fresh address per visitor, from 10.0.0.0/8, so that each counts as a client of its own. */
function nextAddress(): string {
  visitorNumber += 1;
  return `10.${(visitorNumber >> 16) & 255}.${(visitorNumber >> 8) & 255}.${visitorNumber & 255}`;
}

/** The remotes' builds the page's inline configuration names. */
async function pageBuilds(page: Page): Promise<Record<string, string>> {
  const text = await page
    .locator(`#${CONFIG_ELEMENT_ID}`)
    .textContent({ timeout: 5_000 })
    .catch(() => null);
  try {
    return (JSON.parse(text ?? '{}') as { remoteBuilds?: Record<string, string> }).remoteBuilds ?? {};
  } catch {
    return {};
  }
}

/**
 * The visitor switches away: the page sends what it kept as its tab is hidden, while it lives (a
 * beacon sent as a page unloads goes without the context's extra headers, so from this machine's
 * address); its answer is awaited.
 */
async function sendTelemetry(page: Page): Promise<void> {
  // Settled however the page ends: a browser closed under it must not leave a rejection unhandled.
  const sent = page
    .waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === TELEMETRY_PATH, {
      timeout: TELEMETRY_WAIT_MS,
    })
    .catch(() => undefined);
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await (await sent)?.response();
}

function countBuilds(stats: MinuteStats, builds: Record<string, string>): void {
  for (const [remote, build] of Object.entries(builds)) {
    const perBuild = stats.builds.get(remote) ?? new Map<string, number>();
    perBuild.set(build, (perBuild.get(build) ?? 0) + 1);
    stats.builds.set(remote, perBuild);
  }
}

/** One visitor, from a fresh context to its closing; its start and its end counted in the minute each falls in. */
export async function visit(browser: Browser, origin: string, now: () => MinuteStats): Promise<void> {
  const address = nextAddress();
  const number = visitorNumber;
  now().started += 1;
  const session = await openSession(browser, { baseURL: origin, extraHTTPHeaders: { 'x-forwarded-for': address } });
  const { page, watch } = await session.newPage();
  let failure: string | undefined;
  let metErrorPage = false;
  let builds: Record<string, string> = {};
  try {
    await page.goto('/');
    builds = await pageBuilds(page);
    await sendTelemetry(page);
    await playJourney(page, `visitor-${number}@example.com`);
    builds = { ...builds, ...(await pageBuilds(page)) };
  } catch (error) {
    failure = (error as Error).message.split('\n')[0];
    metErrorPage = error instanceof ErrorPageMet;
  }
  // A failed journey's page reports its failures too, from the visitor's own address.
  await sendTelemetry(page).catch(() => undefined);
  const problems = [...(failure ? [failure] : []), ...watch.failedRequests, ...watch.problems()].map(
    (problem) => problem.split('\n')[0] ?? problem,
  );
  const stats = now();
  countBuilds(stats, builds);
  if (problems.length > 0) {
    stats.withErrors += 1;
    if (metErrorPage) stats.errorPages += 1;
    stats.firstError ??= problems[0];
  } else stats.reached += 1;
  await session.close().catch(() => undefined);
}

/**
 * Waits for the visitors under way: for all of them until `stopped` settles, from then on for
 * `drainMs` at most. Gives how many it left.
 */
async function finish(inFlight: Set<Promise<void>>, stopped: Promise<void>, drainMs: number): Promise<number> {
  const giveUp = new AbortController();
  const deadline = stopped.then(() => delay(drainMs, undefined, { signal: giveUp.signal })).catch(() => undefined);
  await Promise.race([Promise.all(inFlight), deadline]);
  giveUp.abort();
  return inFlight.size;
}

/**
 * Visitors arrive every 60/rate s until `stop` is aborted or `limit` have come; at the end of each
 * minute `hooks.report` gets what the minute saw, and the last, partial minute once the visitors
 * under way have finished (or `drainMs` after the stop). Gives how many visitors it left under way.
 */
export async function runTraffic(
  browser: Browser,
  options: TrafficOptions,
  stop: AbortSignal,
  hooks: TrafficHooks,
  limit = Number.POSITIVE_INFINITY,
): Promise<number> {
  let current = emptyMinute();
  let minute = 1;
  const inFlight = new Set<Promise<void>>();
  const ticker = setInterval(() => {
    current.underWay = inFlight.size;
    hooks.report(minute, current);
    minute += 1;
    current = emptyMinute();
  }, 60_000);
  let ended = false;
  const stopped = abortion(stop).then(() => {
    if (!ended) hooks.stopping?.(inFlight.size);
  });
  const everyMs = 60_000 / options.rate;
  const start = Date.now();
  let left: number;
  try {
    for (let arrival = 0; arrival < limit && !stop.aborted; arrival += 1) {
      // Arrivals keep to the clock: a late one is made up by the next.
      const due = start + arrival * everyMs;
      if (due > Date.now()) await delay(due - Date.now(), undefined, { signal: stop }).catch(() => undefined);
      if (stop.aborted) break;
      if (inFlight.size >= options.concurrency) {
        current.late += 1;
        await Promise.race([...inFlight, stopped]);
        if (stop.aborted) break;
      }
      const running: Promise<void> = visit(browser, options.origin, () => current)
        .catch((error: Error) => {
          current.withErrors += 1;
          current.firstError ??= error.message.split('\n')[0];
        })
        .finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    left = await finish(inFlight, stopped, options.drainMs);
  } finally {
    ended = true;
    clearInterval(ticker);
  }
  current.underWay = left;
  if (current.started > 0 || current.reached + current.withErrors > 0 || left > 0) hooks.report(minute, current);
  return left;
}

/** Settles once `signal` is aborted. */
function abortion(signal: AbortSignal): Promise<void> {
  return signal.aborted
    ? Promise.resolve()
    : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
