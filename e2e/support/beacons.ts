/**
 * What a page's telemetry sends, as a test reads it. The browser shows a test neither a beacon's
 * body nor its request (it goes as the page is left), so the page's own sendBeacon keeps each body
 * in the origin's localStorage as it sends it (the queue looks sendBeacon up as it sends), a key
 * of its own per body, for `sentBodies` to read once the pages are gone. And a page's requests
 * held or failed one URL at a time, the beacons left to go as they would.
 */
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

/** Where the pages' sendBeacon keeps a copy of each body it sends, one key per body. */
const BODY_KEY = 'e2e-telemetry-body:';

/** Keeps a copy of every telemetry batch the page sends. */
export async function recordTelemetry(page: Page): Promise<void> {
  await page.addInitScript((prefix) => {
    const send = navigator.sendBeacon.bind(navigator);
    let count = 0;
    const page = Math.random().toString(36).slice(2);
    navigator.sendBeacon = (url: string | URL, data?: BodyInit | null) => {
      count += 1;
      if (typeof data === 'string') localStorage.setItem(`${prefix}${page}:${count}`, data);
      return send(url, data);
    };
  }, BODY_KEY);
}

/** Every body the pages of `context` sent, read from the origin's localStorage (its base URL's). */
export async function sentBodies(context: BrowserContext): Promise<string[]> {
  const page = await context.newPage();
  await page.goto('/robots.txt');
  const found = await page.evaluate(
    (prefix) =>
      Object.keys(localStorage)
        .filter((key) => key.startsWith(prefix))
        .map((key) => localStorage.getItem(key) ?? ''),
    BODY_KEY,
  );
  await page.close();
  return found;
}

/** A telemetry event as a batch carries it (the API's contract), what the tests read of it. */
export interface SentEvent {
  kind: string;
  name?: string;
  route?: string;
  remote?: string;
  value?: number;
}

/** Every event the pages of `context` sent. */
export async function sentEvents(context: BrowserContext): Promise<SentEvent[]> {
  return (await sentBodies(context)).flatMap((body) => (JSON.parse(body) as { events: SentEvent[] }).events);
}

/** What the DevTools protocol says of a request it holds (`Fetch.requestPaused`), in part. */
export interface PausedRequest {
  requestId: string;
  responseStatusCode?: number;
  responseHeaders?: { name: string; value: string }[];
}

/**
 * Has the browser intercept only the page's requests whose URL matches `urlPattern` (a DevTools
 * pattern, `*` for any characters) and hands each to `handle`. Playwright's own routing would
 * intercept every request of the page, the beacons sent as it is left included, which a
 * navigation can then drop; this leaves every other request to go as it would.
 */
export async function interceptOnly(
  page: Page,
  urlPattern: string,
  requestStage: 'Request' | 'Response',
  handle: (cdp: CDPSession, paused: PausedRequest) => Promise<unknown>,
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Fetch.requestPaused', (paused: PausedRequest) => {
    handle(cdp, paused).catch(() => undefined); // a page already gone
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern, requestStage }] });
}

/** Its request fails as a network failure would. */
export const blocked = (cdp: CDPSession, { requestId }: PausedRequest) =>
  cdp.send('Fetch.failRequest', { requestId, errorReason: 'Failed' });

/** Its request is held, never answered: a slow network, for as long as the page lives. */
export const held = async () => undefined;
