import type { BuildInfo } from 'shared/build-info';
import { createVersionCheck, remoteLatestUrl, type ConnectionInfo, type VersionCheckDeps } from './version-check';

const BUILD_ID = 'build-1';
const HOUR = 60 * 60 * 1000;

/** A fake network: URL (without query) → build id (or build file), or an HTTP status to fail with. */
function setup(options: { connection?: ConnectionInfo; intervalMs?: number } = {}) {
  const answers = new Map<string, string | number | BuildInfo>([['/_app/builds/latest.json', BUILD_ID]]);
  const requests: string[] = [];
  const log = jest.fn();
  const fetchImpl = jest.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    requests.push(url);
    const answer = answers.get(url.split('?')[0] ?? url) ?? 404;
    if (typeof answer === 'number') return new Response('nope', { status: answer });
    const build = typeof answer === 'string' ? { id: answer, timestamp: 1 } : answer;
    return new Response(JSON.stringify(build), { status: 200 });
  });
  const deps: VersionCheckDeps = {
    fetch: fetchImpl as unknown as typeof fetch,
    now: () => Date.now(),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    connection: () => options.connection,
    log,
    restoredByHistory: () => false,
  };
  const check = createVersionCheck({ buildId: BUILD_ID, intervalMs: options.intervalMs ?? HOUR, deps });
  return { check, answers, requests, log };
}

beforeEach(() => jest.useFakeTimers({ now: 1_700_000_000_000 }));
afterEach(() => jest.useRealTimers());

describe('build manifest prefetch', () => {
  it('fetches builds/meta/{id}.json about one second after start', async () => {
    const { check, requests, answers } = setup();
    answers.set(`/_app/builds/meta/${BUILD_ID}.json`, BUILD_ID);
    check.start();
    await jest.advanceTimersByTimeAsync(999);
    expect(requests).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(requests).toEqual([`/_app/builds/meta/${BUILD_ID}.json`]);
    check.stop();
  });

  it.each<[string, ConnectionInfo]>([
    ['slow-2g', { effectiveType: 'slow-2g' }],
    ['save-data', { effectiveType: '4g', saveData: true }],
  ])('skips it on a very slow connection (%s)', async (_name, connection) => {
    const { check, requests } = setup({ connection });
    check.start();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(requests).toEqual([]);
    check.stop();
  });

  it('only logs when the manifest fetch fails', async () => {
    const { check, log } = setup();
    check.start();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(log).toHaveBeenCalledWith('Fetching the build manifest failed', expect.any(Error));
    expect(check.isStale()).toBe(false);
    check.stop();
  });
});

describe('new-version polling', () => {
  it('polls /_app/builds/latest.json?{timestamp} every interval', async () => {
    const { check, requests } = setup({ intervalMs: 60_000, connection: { saveData: true } });
    check.start();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(requests).toEqual([`/_app/builds/latest.json?${Date.now()}`]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(requests).toHaveLength(2);
    expect(requests[1]).toMatch(/^\/_app\/builds\/latest\.json\?\d+$/);
    check.stop();
    await jest.advanceTimersByTimeAsync(180_000);
    expect(requests).toHaveLength(2);
  });

  it('stays current while the id is the same and turns stale when it differs', async () => {
    const { check, answers } = setup();
    await check.poll();
    expect(check.isStale()).toBe(false);
    answers.set('/_app/builds/latest.json', 'build-2');
    await check.poll();
    expect(check.isStale()).toBe(true);
  });

  it('treats a failed check as no news', async () => {
    const { check, answers, log } = setup();
    answers.set('/_app/builds/latest.json', 500);
    await check.poll();
    expect(check.isStale()).toBe(false);
    expect(log).toHaveBeenCalledWith('Checking for a new host build failed', expect.any(Error));
  });

  it("watches a loaded remote's latest.json beside its manifest", async () => {
    const { check, answers, requests } = setup();
    const manifest = 'http://localhost:3003/mf-manifest.json';
    answers.set('http://localhost:3003/builds/latest.json', 'content-1');
    await check.trackRemote('content', manifest);
    await check.poll();
    expect(check.isStale()).toBe(false);
    expect(requests.filter((url) => url.startsWith('http://localhost:3003/builds/latest.json?'))).toHaveLength(2);
    answers.set('http://localhost:3003/builds/latest.json', 'content-2');
    await check.poll();
    expect(check.isStale()).toBe(true);
  });
});

describe("a remote the host's build never saw (an added one)", () => {
  it("is watched by its latest.json beside its manifest, as the registry's remotes are", async () => {
    const { check, answers } = setup();
    answers.set('https://news.example.com/builds/latest.json', 'n-1');
    await check.trackRemote('news', 'https://news.example.com/mf-manifest.json');
    await check.poll();
    expect(check.isStale()).toBe(false);
    answers.set('https://news.example.com/builds/latest.json', 'n-2');
    await check.poll();
    expect(check.isStale()).toBe(true);
  });
});

describe('rollbacks and pinned builds', () => {
  it('turns stale when a remote is rolled back to a build made before the loaded one', async () => {
    const { check, answers } = setup();
    const latest = 'http://localhost:3003/builds/latest.json';
    answers.set(latest, { id: 'content-2', timestamp: 2_000 });
    await check.trackRemote('content', 'http://localhost:3003/mf-manifest.json');

    answers.set(latest, { id: 'content-1', timestamp: 1_000 });
    await check.poll();

    expect(check.isStale()).toBe(true);
  });

  it("watches a pinned build's own latest.json, which names that build whatever is deployed since", async () => {
    const { check, answers, requests } = setup();
    const pinned = 'http://localhost:3003/builds/content-1/mf-manifest.json';
    answers.set('http://localhost:3003/builds/content-1/builds/latest.json', 'content-1');
    answers.set('http://localhost:3003/builds/latest.json', 'content-2');
    await check.trackRemote('content', pinned);

    await check.poll();

    expect(check.isStale()).toBe(false);
    expect(requests.filter((url) => url.startsWith('http://localhost:3003/builds/latest.json'))).toEqual([]);
  });
});

describe('remoteLatestUrl', () => {
  it('resolves beside a manifest or a remote entry, under any base path', () => {
    expect(remoteLatestUrl('http://cdn.example/gifts/v1/mf-manifest.json')).toBe(
      'http://cdn.example/gifts/v1/builds/latest.json',
    );
    expect(remoteLatestUrl('https://x.example/remoteEntry.js')).toBe('https://x.example/builds/latest.json');
  });
});

describe("the visitor's own builds (buildsUrl)", () => {
  const BUILDS_URL = '/remote-builds.json';

  /** A page the host's server told it runs gifts c2; `/remote-builds.json` answers `builds`. */
  function visitor(builds: Record<string, string>, storage: Storage = sessionStorage) {
    const { answers, requests, log } = setup();
    let told = builds;
    let ticketNo = 0;
    const tickets: string[] = [];
    const deps: VersionCheckDeps = {
      fetch: (async (input: RequestInfo | URL) => {
        const url = String(input);
        requests.push(url);
        if (url.startsWith(`${BUILDS_URL}?`)) return Response.json({ builds: told, ticket: `t${(ticketNo += 1)}` });
        const answer = answers.get(url.split('?')[0] ?? url);
        return typeof answer === 'string'
          ? Response.json({ id: answer, timestamp: 1 })
          : new Response('', { status: 404 });
      }) as typeof fetch,
      now: () => Date.now(),
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      connection: () => undefined,
      log,
      restoredByHistory: () => false,
    };
    const check = createVersionCheck({
      buildId: BUILD_ID,
      intervalMs: HOUR,
      deps,
      buildsUrl: BUILDS_URL,
      storage: () => storage,
      onTicket: (ticket) => tickets.push(ticket),
    });
    return { check, requests, log, answers, tickets, tell: (next: Record<string, string>) => (told = next) };
  }

  afterEach(() => sessionStorage.clear());

  it("asks the host's server once per poll instead of each remote's latest.json, and is stale when a loaded remote's build differs", async () => {
    const { check, requests, tell } = visitor({ gifts: 'c2', content: 'k1' });
    await check.trackRemote('gifts', 'http://localhost:3001/builds/c2/mf-manifest.json', 'c2');
    await check.trackRemote('content', 'http://localhost:3003/mf-manifest.json', 'k1');
    await check.poll();
    expect(check.isStale()).toBe(false);
    expect(requests.map((url) => url.split('?')[0])).toEqual(['/_app/builds/latest.json', BUILDS_URL]);

    // The canary was aborted: this visitor gets the stable build now.
    tell({ gifts: 's1', content: 'k1' });
    await check.poll();
    expect(check.isStale()).toBe(true);
  });

  it('hands on the fresh telemetry ticket of each answer for the builds the page keeps, none for builds it will leave', async () => {
    const { check, tickets, tell } = visitor({ gifts: 'c2' });
    await check.trackRemote('gifts', 'http://localhost:3001/builds/c2/mf-manifest.json', 'c2');
    await check.poll();
    await check.poll();
    expect(tickets).toEqual(['t1', 't2']);
    tell({ gifts: 's1' });
    await check.poll();
    expect(check.isStale()).toBe(true);
    expect(tickets).toEqual(['t1', 't2']);
  });

  it('follows the build the page runs after a fallback, and is not sent back to a build this tab found broken', async () => {
    const { check, tell } = visitor({ gifts: 'c2' });
    await check.trackRemote('gifts', 'http://localhost:3001/builds/c2/mf-manifest.json', 'c2');
    // The page fell back from c2 to s1 and marked c2 broken (last-known-good.ts).
    const { markBroken } = await import('../federation/session-records');
    markBroken(() => sessionStorage, 'gifts', 'c2', Date.now());
    await check.trackRemote('gifts', 'http://localhost:3001/builds/s1/mf-manifest.json', 's1');

    // The host's server has not read the abort yet: it still names the broken canary.
    await check.poll();
    expect(check.isStale()).toBe(false);
    tell({ gifts: 's1' });
    await check.poll();
    expect(check.isStale()).toBe(false);
  });

  it('asks for no second full load when the page it gave runs the same builds and is told the same', async () => {
    const first = visitor({ gifts: 's1' });
    await first.check.trackRemote('gifts', 'http://localhost:3001/builds/c2/mf-manifest.json', 'c2');
    await first.check.poll();
    expect(first.check.isStale()).toBe(true);

    // The full load gave c2 again (one of the host's servers had not read the abort).
    const second = visitor({ gifts: 's1' });
    await second.check.trackRemote('gifts', 'http://localhost:3001/builds/c2/mf-manifest.json', 'c2');
    await second.check.poll();
    expect(second.check.isStale()).toBe(false);
    expect(second.log).toHaveBeenCalledWith(expect.stringContaining('gifts:c2>s1'));

    // Another change is news again.
    second.tell({ gifts: 's2' });
    await second.check.poll();
    expect(second.check.isStale()).toBe(true);
  });

  it("follows an added remote's build through the host's server's answer", async () => {
    const { check, tell } = visitor({ news: 'n1' });
    await check.trackRemote('news', 'https://news.example.com/builds/n1/mf-manifest.json', 'n1');
    await check.poll();
    expect(check.isStale()).toBe(false);
    tell({ news: 'n2' });
    await check.poll();
    expect(check.isStale()).toBe(true);
  });

  it("watches a remote the host's server named no build for by its latest.json", async () => {
    const { check, requests, answers } = visitor({});
    answers.set('http://localhost:3003/builds/latest.json', 'k1');
    await check.trackRemote('content', 'http://localhost:3003/mf-manifest.json');
    await check.poll();
    expect(requests.map((url) => url.split('?')[0])).toEqual([
      'http://localhost:3003/builds/latest.json',
      '/_app/builds/latest.json',
      'http://localhost:3003/builds/latest.json',
    ]);
    expect(check.isStale()).toBe(false);
  });
});
