/**
 * Visitors for a staging (or any site of ours): each a fresh context of headless Chromium (no
 * cookies, so a fresh cohort: a canary at N % gets its share) with an address of its own in
 * X-Forwarded-For (nginx passes it on, the API counts distinct clients by it), opening `/` and
 * playing the chaos run's journey on the pages; each page is hidden before it is left, so its
 * telemetry goes with the visitor's address (and the ticket the host's server signed). They arrive at a
 * steady rate; what they met is counted per minute.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser, Page } from '@playwright/test';
import { openSession } from '../support/browser';
import { playJourney } from '../chaos/browsers';

export interface TrafficOptions {
  origin: string;
  /** New visitors a minute. */
  rate: number;
  /** Visitors at once at most: past it, arrivals wait their turn. */
  concurrency: number;
}

/** What the visitors of one minute met. */
export interface MinuteStats {
  visitors: number;
  /** Visitors who reached their voucher. */
  done: number;
  /** Visitors who met an error (a failed step, an error page, a page error, a failed request). */
  withErrors: number;
  /** The first error met, for the line. */
  firstError?: string;
  /** Arrivals that waited for a visitor under way to finish (`concurrency` reached): the rate was not kept. */
  late: number;
  /** Per remote, per build id: the visitors whose page named it. */
  builds: Map<string, Map<string, number>>;
}

export function emptyMinute(): MinuteStats {
  return { visitors: 0, done: 0, withErrors: 0, late: 0, builds: new Map() };
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
  const sent = page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === TELEMETRY_PATH,
    { timeout: TELEMETRY_WAIT_MS },
  );
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await (await sent.catch(() => undefined))?.response();
}

function countBuilds(stats: MinuteStats, builds: Record<string, string>): void {
  for (const [remote, build] of Object.entries(builds)) {
    const perBuild = stats.builds.get(remote) ?? new Map<string, number>();
    perBuild.set(build, (perBuild.get(build) ?? 0) + 1);
    stats.builds.set(remote, perBuild);
  }
}

/** One visitor, from a fresh context to its closing; its arrival and its end counted in the minute each falls in. */
export async function visit(browser: Browser, origin: string, now: () => MinuteStats): Promise<void> {
  const address = nextAddress();
  const number = visitorNumber;
  now().visitors += 1;
  const session = await openSession(browser, { baseURL: origin, extraHTTPHeaders: { 'x-forwarded-for': address } });
  const { page, watch } = await session.newPage();
  let failure: string | undefined;
  let builds: Record<string, string> = {};
  try {
    await page.goto('/');
    builds = await pageBuilds(page);
    await sendTelemetry(page);
    await playJourney(page, `visitor-${number}@example.com`);
    builds = { ...builds, ...(await pageBuilds(page)) };
  } catch (error) {
    failure = (error as Error).message.split('\n')[0];
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
    stats.firstError ??= problems[0];
  } else stats.done += 1;
  await session.close().catch(() => undefined);
}

/** A build id as a minute's line shows it: a long one (a UUID) by its first 8 characters. */
const shortBuild = (build: string) => (build.length > 28 ? `${build.slice(0, 8)}…` : build);

/** `gifts d412bd69… (10), rehearsal-1 (2); content …`. */
export function describeBuilds(builds: MinuteStats['builds']): string {
  return [...builds]
    .map(
      ([remote, perBuild]) =>
        `${remote} ${[...perBuild].map(([build, count]) => `${shortBuild(build)} (${count})`).join(', ')}`,
    )
    .join('; ');
}

/** A minute's line as printed. */
export function describeMinute(minute: number, stats: MinuteStats): string {
  const errors = stats.withErrors > 0 ? `, ${stats.withErrors} met errors (first: ${stats.firstError})` : ', no errors';
  const builds = stats.builds.size > 0 ? `; builds seen: ${describeBuilds(stats.builds)}` : '';
  const late = stats.late > 0 ? `; ${stats.late} came late, waiting for a visitor under way (--concurrency)` : '';
  return `traffic: minute ${minute}: ${stats.visitors} visitors, ${stats.done} reached a voucher${errors}${builds}${late}`;
}

/**
 * Visitors arrive every 60/rate s until `stop` is aborted or `limit` have come; at the end of each
 * minute `report` gets what the minute saw (arrivals, and the visitors who finished in it), and
 * the last, partial minute once every visitor has finished.
 */
export async function runTraffic(
  browser: Browser,
  options: TrafficOptions,
  stop: AbortSignal,
  report: (minute: number, stats: MinuteStats) => void,
  limit = Number.POSITIVE_INFINITY,
): Promise<void> {
  let current = emptyMinute();
  let minute = 1;
  const ticker = setInterval(() => {
    report(minute, current);
    minute += 1;
    current = emptyMinute();
  }, 60_000);
  const everyMs = 60_000 / options.rate;
  const inFlight = new Set<Promise<void>>();
  const start = Date.now();
  try {
    for (let arrival = 0; arrival < limit && !stop.aborted; arrival += 1) {
      // Arrivals keep to the clock: a late one is made up by the next.
      const due = start + arrival * everyMs;
      if (due > Date.now()) await delay(due - Date.now(), undefined, { signal: stop }).catch(() => undefined);
      if (stop.aborted) break;
      if (inFlight.size >= options.concurrency) {
        current.late += 1;
        await Promise.race(inFlight);
      }
      const running: Promise<void> = visit(browser, options.origin, () => current)
        .catch((error: Error) => {
          current.withErrors += 1;
          current.firstError ??= error.message.split('\n')[0];
        })
        .finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    await Promise.all(inFlight);
  } finally {
    clearInterval(ticker);
  }
  if (current.visitors > 0 || current.done > 0 || current.withErrors > 0) report(minute, current);
}
