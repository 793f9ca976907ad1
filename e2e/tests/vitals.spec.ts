/**
 * A visitor's vitals reach the API however soon they leave. LCP, FCP and TTFB are read by the
 * host's first script from the page's start, so a page left before the web-vitals chunk (loaded
 * after the first content, for INP and CLS) has arrived still sends them, LCP under the part its
 * element was in: a prerendered page's text, replaced when the app takes the page over, is its
 * remote's.
 */
import { visit, waitForRenderedPage } from '../support/app-page';
import { held, interceptOnly, recordTelemetry, sentEvents } from '../support/beacons';
import { expect, test } from '../support/fixtures';

test('a visitor who leaves a prerendered page before the web-vitals chunk arrives still sends its LCP, FCP and TTFB', async ({
  page,
  context,
}) => {
  await recordTelemetry(page);
  // The chunk never arrives while the page lives.
  await interceptOnly(page, '*/web-vitals.*.js', 'Request', held);
  for (const [path, remote] of [
    ['/about', 'content'],
    ['/game', 'gifts'],
  ] as const) {
    expect(await visit(page, path)).toBe(200);
    await waitForRenderedPage(page);
    await page.goto('about:blank');
    const vitals = (await sentEvents(context)).filter((event) => event.kind === 'vital');
    expect(vitals.filter((vital) => vital.route === path).map(({ name, remote }) => ({ name, remote }))).toEqual([
      { name: 'TTFB', remote: 'host' },
      { name: 'FCP', remote: 'host' },
      { name: 'LCP', remote },
    ]);
    expect(vitals.every(({ value }) => value !== undefined && value > 0)).toBe(true);
  }
});
