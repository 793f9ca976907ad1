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
