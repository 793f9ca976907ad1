/**
 * A visitor who meets the host's error page (a canary whose page throws) ends there and is
 * counted, instead of holding a place among the visitors under way for a step's timeout.
 * Headless Chromium on a loopback stand-in site.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from 'testbed/chromium';
import { ErrorPageMet, playJourney } from '../chaos/browsers';
import { startStandInSite, type GameMode, type StandInSite } from './stand-in-site';
import { runTraffic } from './traffic';
import { describeMinute, type MinuteStats } from './traffic-stats';

// Each case drives Chromium through whole journeys (the last, three of them): seconds on a quiet
// machine, several times that beside the run's other workers; jest's 5 s is a unit test's budget.
jest.setTimeout(60_000);

let browser: Browser;
let site: StandInSite | undefined;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
});
afterAll(() => browser.close());
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function journeyOn(game: GameMode): Promise<unknown> {
  site = await startStandInSite({ game });
  const context = await browser.newContext({ baseURL: site.url });
  try {
    return await playJourney(await context.newPage(), 'visitor@example.com').catch((error: unknown) => error);
  } finally {
    await context.close();
  }
}

describe('the journey', () => {
  it('ends on the error page a throwing game shows, saying so, without waiting for the box', async () => {
    const error = await journeyOn('error-page');
    expect(error).toBeInstanceOf(ErrorPageMet);
    expect((error as Error).message).toBe(
      'met the error page (500) at /game: 500 Internal Server Error this build of the gifts remote is broken',
    );
  });

  it('ends on the error page that shows after a step, without waiting for the next one', async () => {
    const error = await journeyOn('error-after-play');
    expect(error).toBeInstanceOf(ErrorPageMet);
    expect((error as Error).message).toContain('met the error page (500) at /game');
  });
});

describe('traffic', () => {
  it('counts visitors who met the error page as finished with errors, in the minute they finished', async () => {
    site = await startStandInSite({ game: 'error-page' });
    const reports: string[] = [];
    const stats: MinuteStats[] = [];
    const left = await runTraffic(
      browser,
      { origin: site.url, rate: 600, concurrency: 2, drainMs: 60_000 },
      new AbortController().signal,
      {
        report: (minute, minuteStats) => {
          stats.push(minuteStats);
          reports.push(describeMinute(minute, minuteStats));
        },
      },
      3,
    );
    expect(left).toBe(0);
    expect(stats).toHaveLength(1);
    expect(stats[0]).toMatchObject({ started: 3, reached: 0, withErrors: 3, errorPages: 3, underWay: 0 });
    expect(reports[0]).toMatch(
      /^traffic: minute 1: started 3, finished 3 \(0 reached a voucher, 3 met errors, 3 of them the error page; first: met the error page \(500\) at \/game: .*\), 0 under way(, \d+ came late.*)?; builds seen: gifts throws-1 \(3\)$/,
    );
  });
});
