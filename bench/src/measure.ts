/** One cold load of a route, and one warm client-side navigation, in a throttled page. */
import type { Browser, Page } from 'playwright-core';
import {
  bodyBytes,
  isCode,
  reachedServer,
  succeeded,
  timed,
  type NetworkLog,
  type RecordedRequest,
} from './network-log';
import { openThrottledPage, THROTTLING } from './browser';
import {
  armInPage,
  contentVisibleAt,
  contentVisibleInPage,
  idleInPage,
  interactedInPage,
  PROBE_GLOBAL,
  readProbeInPage,
  shownTextInPage,
  timeOriginInPage,
  type ProbeState,
} from './probe';
import { floorMs } from './floor';
import { interactionToNextPaint } from './inp';
import { chainDepths, serialRoundTrips } from './round-trips';
import { WARM, type Interaction, type MeasuredRoute, type PageIds } from './routes';

const LOAD_TIMEOUT_MS = 90_000;
/** After the content shows: no request for this long, so that LCP and late requests settle. */
const QUIET_MS = 1_000;
const SETTLE_TIMEOUT_MS = 15_000;

export interface ColdLoad {
  jsRequests: number;
  /** gzip bytes of those scripts' bodies. */
  jsBytes: number;
  roundTrips: number;
  fcp: number;
  lcp: number;
  contentVisible: number;
  /** The document as received: its response's headers and (gzip) body. */
  htmlBytes: number;
  /** ms: when the document's last byte was received. */
  htmlReceived: number;
  /** ms: the least FCP the emulated network allows for those bytes (floor.ts). */
  floor: number;
  /** Requests to blocked origins (the monolith's page never reaches the federated remotes). */
  blocked: number;
  /** Same-origin scripts the page's own HTML loads and those load directly (chain depth ≤ 3). */
  hostFirstScripts: string[];
  /** Console errors and page errors, for the report's footnotes. */
  problems: string[];
  /** Every request of the load, times in ms since the time origin, for bench/.work/logs/loads/. */
  requests: LoggedRequest[];
}

export interface LoggedRequest {
  url: string;
  type: string;
  status?: number;
  blocked?: true;
  /** Answered from the browser's caches (a preload's copy): not counted. */
  fromCache?: true;
  sent: number;
  finished?: number;
  gzipBytes: number;
  depth: number;
  beforeContent: boolean;
  /** The initiator's URLs (document, scripts on its stack). */
  initiators: string[];
}

interface Target {
  origin: string;
  /** Origins whose requests fail at once. */
  blockedOrigins: readonly string[];
}

function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** Opens `url` until its content is on screen, collecting its problems from the first request. */
async function openRoute(page: Page, url: string): Promise<{ problems: string[]; url: string }> {
  const problems = watchProblems(page);
  await page.goto(url, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
  await waitForContent(page, url);
  return { problems, url };
}

async function waitForContent(page: Page, what: string): Promise<void> {
  try {
    await page.waitForFunction(contentVisibleInPage, PROBE_GLOBAL, { timeout: LOAD_TIMEOUT_MS, polling: 100 });
  } catch (error) {
    const shown = await page.evaluate(shownTextInPage).catch(() => '(page gone)');
    throw new Error(
      `${what}: the content did not show (${(error as Error).message}); the page shows ${JSON.stringify(String(shown).slice(0, 300))}`,
    );
  }
}

async function readProbe(page: Page): Promise<ProbeState & { timeOrigin: number }> {
  const probe = await page.evaluate(readProbeInPage, PROBE_GLOBAL);
  if (!probe) throw new Error(`${page.url()}: the probe is missing`);
  const timeOrigin = await page.evaluate(timeOriginInPage);
  return { ...probe, timeOrigin };
}

/**
 * Requests sent before `until` (ms since the time origin) that reached the server: a preloaded
 * script's second request, answered from the preload, costs no round trip and is not counted.
 */
function requestsBefore(requests: readonly RecordedRequest[], timeOrigin: number, until: number): RecordedRequest[] {
  return requests.filter((request) => reachedServer(request) && request.sentAt - timeOrigin <= until);
}

/**
 * Loads `route` in a fresh throttled page and waits for its content. With `traceAsyncStacks`
 * the request chains are exact (round trips, first scripts) but the timings are not: the
 * tracing slows scripts down.
 */
export async function coldLoad(
  browser: Browser,
  target: Target,
  route: MeasuredRoute,
  ids: PageIds,
  options: { traceAsyncStacks?: boolean } = {},
): Promise<ColdLoad> {
  const session = await openThrottledPage(browser, route.selector, target.blockedOrigins, options);
  try {
    const { page, network } = session;
    const { problems, url } = await openRoute(page, `${target.origin}${route.path(ids)}`);
    await network.settle(QUIET_MS, SETTLE_TIMEOUT_MS);
    const probe = await readProbe(page);
    const visible = contentVisibleAt(probe);
    const before = requestsBefore(network.requests, probe.timeOrigin, visible);
    const scripts = before.filter((request) => request.kind === 'script' && succeeded(request));
    const chain = timed(before, probe.timeOrigin);
    const reached = network.requests.filter(reachedServer);
    // Over the whole load: the first scripts may still be loading when prerendered text shows.
    const depths = chainDepths(timed(reached, probe.timeOrigin));
    const pageOrigin = new URL(url).origin;
    const documentRequest = reached.find((request) => request.resourceType === 'Document');
    const htmlBytes = documentRequest?.transferBytes ?? Number.NaN;
    return {
      jsRequests: scripts.length,
      jsBytes: scripts.reduce((sum, request) => sum + bodyBytes(request), 0),
      roundTrips: serialRoundTrips(chain, visible),
      fcp: probe.fcp ?? Number.NaN,
      lcp: probe.lcp ?? Number.NaN,
      contentVisible: visible,
      htmlBytes,
      htmlReceived:
        documentRequest?.finishedAt === undefined ? Number.NaN : documentRequest.finishedAt - probe.timeOrigin,
      floor: floorMs(htmlBytes, THROTTLING),
      blocked: network.requests.filter((request) => request.blocked).length,
      hostFirstScripts: reached
        .filter(
          (request) =>
            request.kind === 'script' &&
            succeeded(request) &&
            new URL(request.url).origin === pageOrigin &&
            (depths.get(request.id) ?? Infinity) <= 3,
        )
        .map((request) => request.url),
      problems,
      requests: network.requests.map((request) => ({
        url: request.url,
        type: request.resourceType,
        status: request.status,
        ...(request.blocked ? { blocked: true as const } : {}),
        ...(request.fromCache ? { fromCache: true as const } : {}),
        sent: Math.round(request.sentAt - probe.timeOrigin),
        finished: request.finishedAt === undefined ? undefined : Math.round(request.finishedAt - probe.timeOrigin),
        gzipBytes: bodyBytes(request),
        depth: depths.get(request.id) ?? 0,
        beforeContent: before.includes(request),
        initiators: [...new Set(request.initiatorUrls)],
      })),
    };
  } finally {
    await session.close();
  }
}

export interface WarmNavigation {
  /** Code requests (scripts, federation manifests) the hover on the link started. */
  hoverCodeRequests: number;
  /** After the click, until the game's content showed. */
  clickCodeRequests: number;
  clickRoundTrips: number;
  /** ms from the click to the game's content. */
  clickToContent: number;
  /** Back to the home page and forward to the game again: code requests (0 expected). */
  backForthCodeRequests: number;
  problems: string[];
  /** The URLs each step requested, for bench/.work/logs/loads/. */
  requests: { hover: string[]; click: string[]; backForth: string[] };
}

function codeRequests(requests: readonly RecordedRequest[]): number {
  return requests.filter((request) => reachedServer(request) && isCode(request)).length;
}

function urls(requests: readonly RecordedRequest[]): string[] {
  return requests.map(
    (request) =>
      `${request.blocked ? 'blocked ' : ''}${request.fromCache ? 'cached ' : ''}${request.resourceType} ${request.url}`,
  );
}

async function arm(page: Page, selector: string): Promise<void> {
  await page.evaluate(armInPage, { global: PROBE_GLOBAL, selector });
}

/**
 * Until the page is done: no request for a while and then an idle main thread with still no
 * new request. A prerendered page shows its content long before its scripts have run, and a
 * throttled CPU can run them for seconds without a request.
 */
async function settled(page: Page, network: NetworkLog): Promise<number> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS * 2;
  for (;;) {
    await network.settle(QUIET_MS, SETTLE_TIMEOUT_MS);
    const seen = network.requests.length;
    await page.evaluate(idleInPage);
    await network.settle(QUIET_MS, SETTLE_TIMEOUT_MS);
    if (network.requests.length === seen || Date.now() > deadline) return network.requests.length;
  }
}

/**
 * From the home page (cold, then left to settle, so the links' entry prefetches are done):
 * hover the game's link, let its prefetch finish, click, and wait for the game; then back to
 * the home page and forward to the game, both already visited. With `traceAsyncStacks` the
 * click's round trips are exact but its time is not (the tracing slows scripts down, the
 * federated build's more), as for a cold load.
 */
export async function warmNavigation(
  browser: Browser,
  target: Target,
  options: { traceAsyncStacks?: boolean } = {},
): Promise<WarmNavigation> {
  const session = await openThrottledPage(browser, WARM.from.selector, target.blockedOrigins, options);
  try {
    const { page, network } = session;
    const problems = watchProblems(page);
    const home = `${target.origin}${WARM.from.path({ giftId: '', redeemId: '' })}`;
    await page.goto(home, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    await waitForContent(page, home);
    const beforeHover = await settled(page, network);

    await page.hover(WARM.link);
    const beforeClick = await settled(page, network);

    await arm(page, WARM.to.selector);
    await page.click(WARM.link);
    await waitForContent(page, `${home} → ${WARM.to.label}`);
    const afterClick = await settled(page, network);
    const probe = await readProbe(page);
    const visible = contentVisibleAt(probe);
    const navigation = requestsBefore(network.requests.slice(beforeClick, afterClick), probe.timeOrigin, visible);

    await arm(page, WARM.from.selector);
    await page.goBack({ waitUntil: 'commit' });
    await waitForContent(page, `back to ${WARM.from.label}`);
    await arm(page, WARM.to.selector);
    await page.goForward({ waitUntil: 'commit' });
    await waitForContent(page, `forward to ${WARM.to.label}`);
    const afterBackForth = await settled(page, network);

    return {
      hoverCodeRequests: codeRequests(network.requests.slice(beforeHover, beforeClick)),
      clickCodeRequests: codeRequests(navigation),
      clickRoundTrips: serialRoundTrips(timed(navigation, probe.timeOrigin), visible),
      clickToContent: visible - (probe.clickedAt ?? Number.NaN),
      backForthCodeRequests: codeRequests(network.requests.slice(afterClick, afterBackForth)),
      problems,
      requests: {
        hover: urls(network.requests.slice(beforeHover, beforeClick)),
        click: urls(network.requests.slice(beforeClick, afterClick)),
        backForth: urls(network.requests.slice(afterClick, afterBackForth)),
      },
    };
  } finally {
    await session.close();
  }
}

export interface InteractionRun {
  /** ms: the interaction's latency to the next paint (inp.ts). */
  inp: number;
  problems: string[];
}

const INTERACTION_TIMEOUT_MS = 15_000;

/**
 * Loads the interaction's page cold and throttled, leaves it to settle (its scripts have taken
 * the page over), does what comes before the measured interaction (filling the form), then
 * the interaction itself, and reads its latency to the next paint from Event Timing.
 */
export async function interactionRun(
  browser: Browser,
  target: Target,
  interaction: Interaction,
  ids: PageIds,
): Promise<InteractionRun> {
  const route = interaction.route;
  const session = await openThrottledPage(browser, route.selector, target.blockedOrigins);
  try {
    const { page, network } = session;
    const { problems } = await openRoute(page, `${target.origin}${route.path(ids)}`);
    await settled(page, network);
    await interaction.prepare(page);
    await page.evaluate(idleInPage);
    await arm(page, route.selector);
    await interaction.act(page);
    await page.waitForFunction(interactedInPage, PROBE_GLOBAL, { timeout: INTERACTION_TIMEOUT_MS, polling: 100 });
    // The entries of the interaction's other events (pointerup after pointerdown…) follow theirs.
    await page.evaluate(idleInPage);
    const probe = await readProbe(page);
    return { inp: interactionToNextPaint(probe.events), problems };
  } finally {
    await session.close();
  }
}
