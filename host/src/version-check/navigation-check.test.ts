/**
 * The version check on a navigation and after a remote's page threw (version-check.ts): a page
 * the host's server told to check on each navigation asks `/remote-builds.json` then, whatever
 * its poll's interval, and one that was not told asks nothing; a page that threw on a build the
 * visitor is no longer given leaves it.
 */
import { BROKEN_BUILDS_KEY, BUILDS_TOLD_KEY, brokenBuild } from '../federation/tab-memory';
import {
  createVersionCheck,
  INTENT_QUESTION_GAP_MS,
  NAVIGATION_ANSWER_REUSE_MS,
  type VersionCheckDeps,
} from './version-check';

const BUILDS_URL = '/remote-builds.json';
const HOUR = 60 * 60 * 1000;
const GIFTS_C2 = 'http://localhost:3001/builds/c2/mf-manifest.json';

interface Told {
  builds: Record<string, string>;
  checkOnNavigation?: true;
}

/**
 * A page that runs gifts c2 once `loaded()`; `/remote-builds.json` answers what `tell` last gave,
 * or never while `hang`; `restored`: the visitor brought it back from history.
 */
function page(options: { checkOnNavigation?: boolean; buildsUrl?: string; restored?: boolean } = {}) {
  let told: Told = { builds: { gifts: 'c2' }, checkOnNavigation: true };
  let hang = false;
  const requests: string[] = [];
  const log = jest.fn();
  const deps: VersionCheckDeps = {
    fetch: (async (input: RequestInfo | URL) => {
      const url = String(input);
      requests.push(url.split('?')[0] ?? url);
      if (hang) return new Promise<never>(() => undefined);
      return url.startsWith(`${BUILDS_URL}?`) ? Response.json(told) : Response.json({ id: 'build-1', timestamp: 1 });
    }) as typeof fetch,
    now: () => Date.now(),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    connection: () => undefined,
    log,
    restoredByHistory: () => options.restored ?? false,
  };
  const check = createVersionCheck({
    buildId: 'build-1',
    intervalMs: HOUR,
    deps,
    buildsUrl: 'buildsUrl' in options ? options.buildsUrl : BUILDS_URL,
    storage: () => sessionStorage,
    checkOnNavigation: options.checkOnNavigation ?? true,
    timeoutMs: 10_000,
  });
  return {
    check,
    requests,
    log,
    /** The page has loaded gifts c2, and its router its first route: the document's own load. */
    loaded: async () => {
      await check.trackRemote('gifts', GIFTS_C2, 'c2');
      await check.checkNavigation();
    },
    tell: (next: Told) => (told = next),
    hang: () => (hang = true),
  };
}

beforeEach(() => jest.useFakeTimers({ now: 1_700_000_000_000 }));
afterEach(() => {
  jest.useRealTimers();
  sessionStorage.clear();
});

describe('checkNavigation', () => {
  it("asks the host's server on each navigation when told to, and is stale once a loaded remote's build changed", async () => {
    const { check, requests, loaded, tell } = page();
    await loaded();
    expect(await check.checkNavigation()).toBe(false);
    jest.advanceTimersByTime(NAVIGATION_ANSWER_REUSE_MS);
    expect(await check.checkNavigation()).toBe(false);
    expect(requests).toEqual([BUILDS_URL, BUILDS_URL]);

    // The canary is aborted: the next navigation hears of it, an hour before the next poll.
    tell({ builds: { gifts: 's1' }, checkOnNavigation: true });
    jest.advanceTimersByTime(NAVIGATION_ANSWER_REUSE_MS);
    expect(await check.checkNavigation()).toBe(true);
    expect(check.isStale()).toBe(true);
    // Stale already: no need to ask again.
    expect(await check.checkNavigation()).toBe(true);
    expect(requests).toHaveLength(3);
  });

  it("asks nothing at the router's first load, the document's own: the host's server has just given its builds", async () => {
    const { check, requests, tell } = page();
    await check.trackRemote('gifts', GIFTS_C2, 'c2');
    tell({ builds: { gifts: 's1' }, checkOnNavigation: true });
    expect(await check.checkNavigation()).toBe(false);
    expect(requests).toEqual([]);
    // The navigations after it ask.
    expect(await check.checkNavigation()).toBe(true);
    expect(requests).toEqual([BUILDS_URL]);
  });

  it("asks at a link's intent, and the click that follows within seconds takes that answer without asking again", async () => {
    const { check, requests, loaded, tell } = page();
    await loaded();
    tell({ builds: { gifts: 's1' }, checkOnNavigation: true });
    check.prepareNavigation();
    expect(requests).toEqual([BUILDS_URL]);
    jest.advanceTimersByTime(NAVIGATION_ANSWER_REUSE_MS - 1);
    expect(await check.checkNavigation()).toBe(true);
    expect(requests).toEqual([BUILDS_URL]);
  });

  it('takes an answer for one navigation only, and none asked longer ago than the host’s read of a deployment', async () => {
    const { check, requests, loaded, tell } = page();
    await loaded();
    check.prepareNavigation();
    expect(await check.checkNavigation()).toBe(false);
    // The canary is aborted just after that navigation: the next one hears of it at once.
    tell({ builds: { gifts: 's1' }, checkOnNavigation: true });
    expect(await check.checkNavigation()).toBe(true);
    expect(requests).toEqual([BUILDS_URL, BUILDS_URL]);

    // Another tab, whose intent came before the abort.
    sessionStorage.clear();
    const late = page();
    await late.loaded();
    late.check.prepareNavigation();
    late.tell({ builds: { gifts: 's1' }, checkOnNavigation: true });
    jest.advanceTimersByTime(NAVIGATION_ANSWER_REUSE_MS);
    expect(await late.check.checkNavigation()).toBe(true);
    expect(late.requests).toEqual([BUILDS_URL, BUILDS_URL]);
  });

  it('asks once for links pointed at one after another, and again a moment later', async () => {
    const { check, requests, loaded } = page();
    await loaded();
    check.prepareNavigation();
    check.prepareNavigation();
    expect(requests).toEqual([BUILDS_URL]);
    jest.advanceTimersByTime(INTENT_QUESTION_GAP_MS);
    check.prepareNavigation();
    expect(requests).toEqual([BUILDS_URL, BUILDS_URL]);
  });

  it('asks nothing on a page the host’s server did not tell to, or before any remote is loaded', async () => {
    const untold = page({ checkOnNavigation: false });
    await untold.loaded();
    untold.tell({ builds: { gifts: 's1' } });
    expect(await untold.check.checkNavigation()).toBe(false);
    expect(untold.requests).toEqual([]);

    const fresh = page();
    expect(await fresh.check.checkNavigation()).toBe(false);
    expect(fresh.requests).toEqual([]);
  });

  it('stops once an answer no longer asks for it, and starts when a poll’s answer does', async () => {
    const { check, requests, loaded, tell } = page();
    await loaded();
    tell({ builds: { gifts: 'c2' } });
    await check.checkNavigation();
    await check.checkNavigation();
    expect(requests).toEqual([BUILDS_URL]);

    tell({ builds: { gifts: 'c2' }, checkOnNavigation: true });
    await check.poll();
    requests.length = 0;
    jest.advanceTimersByTime(NAVIGATION_ANSWER_REUSE_MS);
    await check.checkNavigation();
    expect(requests).toEqual([BUILDS_URL]);
  });

  it('is not asked twice for the same change, except by a document the visitor brought back from history', async () => {
    const aborted: Told = { builds: { gifts: 's1' }, checkOnNavigation: true };
    const forward = page();
    await forward.loaded();
    forward.tell(aborted);
    expect(await forward.check.checkNavigation()).toBe(true);

    // The full load still got c2 (a host's server that had not read the abort yet): no loop.
    const sameAgain = page();
    await sameAgain.loaded();
    sameAgain.tell(aborted);
    expect(await sameAgain.check.checkNavigation()).toBe(false);
    expect(sameAgain.log).toHaveBeenCalledWith(expect.stringContaining('gifts:c2>s1'));

    // Back: the browser shows the canary's document from its cache; its navigation leaves it.
    const back = page({ restored: true });
    await back.loaded();
    back.tell(aborted);
    expect(await back.check.checkNavigation()).toBe(true);

    // The page that load gives is a navigation of its own: held again if it still runs c2.
    const afterBack = page();
    await afterBack.loaded();
    afterBack.tell(aborted);
    expect(await afterBack.check.checkNavigation()).toBe(false);
  });

  it('lets the navigation go on once the answer is later than its timeout', async () => {
    const { check, loaded, hang } = page();
    await loaded();
    hang();
    let answer: boolean | undefined;
    void check.checkNavigation().then((stale) => (answer = stale));
    await jest.advanceTimersByTimeAsync(9_999);
    expect(answer).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(answer).toBe(false);
  });
});

describe('leaveThrowingBuild', () => {
  it('leaves a build the visitor is no longer given: marked broken for the tab, the page stale', async () => {
    const { check, loaded, tell } = page({ checkOnNavigation: false });
    await loaded();
    expect(check.followsBuilds()).toBe(true);
    tell({ builds: { gifts: 's1' } });
    expect(await check.leaveThrowingBuild('gifts', 'c2')).toBe(true);
    expect(brokenBuild(() => sessionStorage, 'gifts', Date.now())).toBe('c2');
    expect(check.isStale()).toBe(true);
  });

  it('stays on a build the visitor is still given, marking nothing', async () => {
    const { check, loaded } = page();
    await loaded();
    expect(await check.leaveThrowingBuild('gifts', 'c2')).toBe(false);
    expect(sessionStorage.getItem(BROKEN_BUILDS_KEY)).toBeNull();
    expect(check.isStale()).toBe(false);
  });

  it('is not sent to a build this tab found broken, nor twice for the same change', async () => {
    const first = page();
    await first.loaded();
    first.tell({ builds: { gifts: 's1' } });
    expect(await first.check.leaveThrowingBuild('gifts', 'c2')).toBe(true);

    // The full load still ran c2 (a host's server that had not read the abort yet), which threw again.
    const second = page();
    await second.loaded();
    second.tell({ builds: { gifts: 's1' } });
    expect(await second.check.leaveThrowingBuild('gifts', 'c2')).toBe(false);
    expect(second.log).toHaveBeenCalledWith(expect.stringContaining('gifts:c2>s1'));
  });

  it('leaves a throwing build that a navigation already switched the tab away from', async () => {
    // The tab left c2 at a navigation (told gifts:c2>s1); Back shows the canary's document from
    // the browser's cache, whose c2 throws.
    sessionStorage.setItem(BUILDS_TOLD_KEY, JSON.stringify(['gifts:c2>s1', Date.now() + 60_000]));
    const { check, loaded, tell } = page();
    await loaded();
    tell({ builds: { gifts: 's1' } });
    expect(await check.leaveThrowingBuild('gifts', 'c2')).toBe(true);
    expect(brokenBuild(() => sessionStorage, 'gifts', Date.now())).toBe('c2');
  });

  it('leaves a build it left before when the visitor brought the document back from history', async () => {
    const first = page();
    first.tell({ builds: { gifts: 's1' } });
    expect(await first.check.leaveThrowingBuild('gifts', 'c2')).toBe(true);

    const back = page({ restored: true });
    back.tell({ builds: { gifts: 's1' } });
    expect(await back.check.leaveThrowingBuild('gifts', 'c2')).toBe(true);
  });

  it('leaves a build whose module threw before the page ever loaded it', async () => {
    const { check, tell } = page();
    tell({ builds: { gifts: 's1' } });
    expect(await check.leaveThrowingBuild('gifts', 'c2')).toBe(true);
    expect(brokenBuild(() => sessionStorage, 'gifts', Date.now())).toBe('c2');
  });

  it("asks nothing on a page that does not follow its builds through the host's server", async () => {
    const unfollowed = page({ buildsUrl: undefined });
    await unfollowed.loaded();
    expect(unfollowed.check.followsBuilds()).toBe(false);
    expect(await unfollowed.check.leaveThrowingBuild('gifts', 'c2')).toBe(false);
    expect(unfollowed.requests.filter((url) => url === BUILDS_URL)).toEqual([]);
  });
});
