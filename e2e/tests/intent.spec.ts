/**
 * Intent preloading (docs/decisions/0016): pointing at a link fetches its page's code (the page's
 * chunks and the remote's copies of the shared modules the page lacks, at once) and then runs
 * it, so the click itself waits for no code and runs none; and no script is ever fetched twice.
 */
import type { Page, Request } from '@playwright/test';
import { followLink, navLink, visit, waitForRenderedPage } from '../support/app-page';
import { fetchManifest } from '../support/faults';
import { expect, test } from '../support/fixtures';
import { manifestUrlOf, originOf } from '../support/test-env';

const GIFTS_ORIGIN = originOf('gifts');

/** Scripts and federation manifests: what a page's code is made of. */
function isCode(request: Request): boolean {
  return request.resourceType() === 'script' || new URL(request.url()).pathname.endsWith('/mf-manifest.json');
}

/** Every code request of the page, in order, and how many are still on their way. */
function recordCode(page: Page) {
  const requested: string[] = [];
  let inFlight = 0;
  const done = (request: Request) => {
    if (isCode(request)) inFlight -= 1;
  };
  page.on('request', (request) => {
    if (!isCode(request)) return;
    requested.push(request.url());
    inFlight += 1;
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return { requested, inFlight: () => inFlight };
}

/** How many of the gifts remote's chunks have run in the page (each pushes itself onto its global). */
function giftsChunksRun(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { webpackChunkgifts?: unknown[] }).webpackChunkgifts?.length ?? 0);
}

/** The files of the gifts remote's copies of shared modules (its manifest's `sharedFallbacks`). */
async function sharedCopies(): Promise<string[]> {
  const { sharedFallbacks } = await fetchManifest(manifestUrlOf('gifts'));
  return Object.values(sharedFallbacks?.shared ?? {}).flatMap((copy) => copy.js ?? []);
}

test('hovering Play fetches and runs the game, so the click needs no code request and runs no code; no script is fetched twice', async ({
  page,
  watch,
}) => {
  const code = recordCode(page);
  expect(await visit(page, '/')).toBe(200);
  await waitForRenderedPage(page);
  // The visible links' prefetches (the remotes' manifests and entries) are done.
  await page.waitForLoadState('networkidle');

  const beforeHover = code.requested.length;
  await navLink(page, 'Play').hover();
  // The hover's downloads: the game's own chunk among them, then nothing on its way.
  await expect
    .poll(() => code.requested.some((url) => url.includes('__federation_expose_GamePage')) && code.inFlight() === 0)
    .toBe(true);
  // The game's own code is one script; the others are the remote's copies of shared modules.
  const copies = await sharedCopies();
  const hovered = code.requested.slice(beforeHover).filter((url) => url.startsWith(GIFTS_ORIGIN));
  expect(hovered.filter((url) => !copies.some((file) => url.endsWith(`/${file}`)))).toEqual([
    expect.stringMatching(/\/__federation_expose_GamePage\.[0-9a-f]+\.js$/),
  ]);

  // Then, in an idle moment, the game's module runs: its chunks have run before any click.
  await expect.poll(() => giftsChunksRun(page)).toBeGreaterThan(0);

  const beforeClick = code.requested.length;
  const ranBeforeClick = await giftsChunksRun(page);
  await followLink(page, navLink(page, 'Play'), '/game');
  const afterClick = code.requested.slice(beforeClick).filter((url) => url.startsWith(GIFTS_ORIGIN));
  expect(afterClick).toEqual([]);
  // The click only rendered: none of the remote's code ran from scratch.
  expect(await giftsChunksRun(page)).toBe(ranBeforeClick);

  const repeated = code.requested.filter((url, index) => code.requested.indexOf(url) !== index);
  expect(repeated).toEqual([]);
  expect(watch.problems()).toEqual([]);
});
