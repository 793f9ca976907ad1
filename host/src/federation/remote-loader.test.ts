import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { createRemoteLoader, type FederationRuntime } from './remote-loader';
import { SESSION_BUILDS_MS } from './tab-memory';

const config = parseRuntimeConfig({
  // Each remote's server on this machine, at its port.
  remotes: everyRemote(),
  apiBaseUrl: 'http://localhost:3004',
  remoteTimeoutMs: 5_000,
});

function Page() {
  return null;
}

/** Waits (on real timers) until `done` holds. */
async function waitUntil(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 1));
}

function fakeRuntime(load: (id: string) => Promise<unknown>) {
  const runtime = {
    registerRemotes: jest.fn(),
    loadRemote: jest.fn(load),
    preloadRemote: jest.fn(async () => undefined),
  };
  return runtime as typeof runtime & FederationRuntime;
}

/** Holds the runtime's next prefetch until the returned function finishes it. */
function holdNextPrefetch(runtime: ReturnType<typeof fakeRuntime>): () => void {
  let finish: () => void = () => undefined;
  runtime.preloadRemote.mockImplementationOnce(
    () =>
      new Promise<undefined>((resolve) => {
        finish = () => resolve(undefined);
      }),
  );
  return () => finish();
}

describe('remote loader', () => {
  it('registers every configured remote without fetching any', () => {
    const runtime = fakeRuntime(async () => ({ default: Page }));
    createRemoteLoader({ config, runtime });
    expect(runtime.registerRemotes).toHaveBeenCalledWith([
      { name: 'gifts', entry: 'http://localhost:3001/mf-manifest.json' },
      { name: 'redeem', entry: 'http://localhost:3002/mf-manifest.json' },
      { name: 'content', entry: 'http://localhost:3003/mf-manifest.json' },
    ]);
    expect(runtime.loadRemote).not.toHaveBeenCalled();
  });

  it("loads a page's default export once and reports the remote's first load", async () => {
    const runtime = fakeRuntime(async () => ({ default: Page }));
    const onRemoteLoaded = jest.fn();
    const loader = createRemoteLoader({ config, runtime, onRemoteLoaded });
    await expect(loader.load('gifts', 'GamePage')).resolves.toBe(Page);
    await expect(loader.load('gifts', 'GamePage')).resolves.toBe(Page);
    await loader.load('gifts', 'GiftPage');
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
    expect(runtime.loadRemote).toHaveBeenCalledWith('gifts/GamePage');
    expect(onRemoteLoaded).toHaveBeenCalledTimes(1);
    expect(onRemoteLoaded).toHaveBeenCalledWith('gifts', 'http://localhost:3001/mf-manifest.json', undefined);
  });

  it('retries a failed download before giving up, and not a broken module', async () => {
    const log = jest.fn();
    let failures = 2;
    const flaky = fakeRuntime(async () => {
      if (failures-- > 0) throw Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' });
      return { default: Page };
    });
    await expect(
      createRemoteLoader({ config, runtime: flaky, log, retryDelaysMs: [1, 1] }).load('gifts', 'GamePage'),
    ).resolves.toBe(Page);
    expect(flaky.loadRemote).toHaveBeenCalledTimes(3);
    expect(log).toHaveBeenCalledTimes(2);

    const down = fakeRuntime(async () => {
      throw new Error('[ Federation Runtime ]: RUNTIME-003 Failed to get manifest.');
    });
    await expect(
      createRemoteLoader({ config, runtime: down, log, retryDelaysMs: [1, 1] }).load('gifts', 'GamePage'),
    ).rejects.toThrow('RUNTIME-003');
    expect(down.loadRemote).toHaveBeenCalledTimes(3);

    const broken = fakeRuntime(async () => {
      throw new TypeError('x is not a function');
    });
    await expect(
      createRemoteLoader({ config, runtime: broken, retryDelaysMs: [1, 1] }).load('gifts', 'GamePage'),
    ).rejects.toThrow(TypeError);
    expect(broken.loadRemote).toHaveBeenCalledTimes(1);
  });

  it('does not remember a failure: the next load tries again', async () => {
    let fail = true;
    const runtime = fakeRuntime(async () => {
      if (fail) throw new Error('[ Federation Runtime ]: RUNTIME-008 remote entry failed');
      return { default: Page };
    });
    const loader = createRemoteLoader({ config, runtime, retryDelaysMs: [] });
    await expect(loader.load('content', 'AboutPage')).rejects.toThrow('RUNTIME-008');
    fail = false;
    await expect(loader.load('content', 'AboutPage')).resolves.toBe(Page);
  });

  it('rejects a module without a default export', async () => {
    const loader = createRemoteLoader({ config, runtime: fakeRuntime(async () => ({ other: 1 })) });
    await expect(loader.load('content', 'AboutPage')).rejects.toThrow(
      'content/AboutPage has no default export to render',
    );
  });

  it('gives up on a remote that never answers after remoteTimeoutMs', async () => {
    jest.useFakeTimers();
    try {
      const runtime = fakeRuntime(() => new Promise(() => undefined));
      const loader = createRemoteLoader({ config, runtime });
      const loading = loader.load('gifts', 'GamePage');
      const assertion = expect(loading).rejects.toMatchObject({
        name: 'RemoteTimeoutError',
        message: 'loading gifts/GamePage took longer than 5000 ms',
      });
      await jest.advanceTimersByTimeAsync(5_000);
      await assertion;
      expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reset forgets the remote, so its entry and manifest are fetched anew', async () => {
    const runtime = fakeRuntime(async () => ({ default: Page }));
    const loader = createRemoteLoader({ config, runtime });
    await loader.load('gifts', 'GamePage');
    loader.reset('gifts');
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'gifts', entry: 'http://localhost:3001/mf-manifest.json' }],
      { force: true },
    );
    await loader.load('gifts', 'GamePage');
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
  });

  it('fetches an entry once: a load waits for a prefetch in flight, and a loaded remote is not prefetched', async () => {
    const runtime = fakeRuntime(async () => ({ default: Page }));
    const finishPrefetch = holdNextPrefetch(runtime);
    const loader = createRemoteLoader({ config, runtime });
    loader.prefetch('gifts');
    const loading = loader.load('gifts', 'GamePage');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runtime.loadRemote).not.toHaveBeenCalled();
    finishPrefetch();
    await expect(loading).resolves.toBe(Page);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);

    await loader.load('content', 'AboutPage');
    loader.prefetch('content');
    expect(runtime.preloadRemote).toHaveBeenCalledTimes(1);
  });

  it('prefetches only the entry when a link shows, the page too on hover, and never repeats a failed prefetch', async () => {
    const runtime = fakeRuntime(async () => ({ default: Page }));
    runtime.preloadRemote.mockRejectedValueOnce(new Error('down'));
    const log = jest.fn();
    const loader = createRemoteLoader({ config, runtime, log });
    loader.prefetch('gifts');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toHaveBeenCalledWith(expect.stringContaining('gifts'), expect.any(Error));
    loader.prefetch('gifts');
    expect(runtime.preloadRemote).toHaveBeenCalledTimes(1);
    expect(runtime.preloadRemote).toHaveBeenLastCalledWith([
      { nameOrAlias: 'gifts', exposes: ['(entry only)'], resourceCategory: 'sync', share: false, depsRemote: false },
    ]);
    loader.prefetch('gifts', 'GiftPage');
    loader.prefetch('gifts', 'GiftPage');
    expect(runtime.preloadRemote).toHaveBeenCalledTimes(2);
    expect(runtime.preloadRemote).toHaveBeenLastCalledWith([
      { nameOrAlias: 'gifts', exposes: ['GiftPage'], resourceCategory: 'sync', share: false, depsRemote: false },
    ]);
  });

  it("runs a page's module once its prefetch is done, and the route's load reuses it, reported once", async () => {
    const runtime = fakeRuntime(async () => ({ default: Page }));
    const finishPrefetch = holdNextPrefetch(runtime);
    const onLoadEnd = jest.fn();
    let clock = 0;
    const loader = createRemoteLoader({ config, runtime, onLoadEnd, now: () => clock });
    loader.prefetch('gifts', 'GamePage');
    const later: (() => void)[] = [];
    loader.warm('gifts', 'GamePage', (run) => later.push(run));
    loader.warm('gifts', 'GamePage', (run) => later.push(run));
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Nothing runs while the page's files are still on their way.
    expect(later).toEqual([]);
    finishPrefetch();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(later).toHaveLength(1);
    later.forEach((run) => run());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
    expect(runtime.loadRemote).toHaveBeenCalledWith('gifts/GamePage');
    // Not a page load yet: nobody asked for the page.
    expect(onLoadEnd).not.toHaveBeenCalled();

    clock = 1000;
    await expect(loader.load('gifts', 'GamePage')).resolves.toBe(Page);
    await expect(loader.load('gifts', 'GamePage')).resolves.toBe(Page);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
    expect(onLoadEnd).toHaveBeenCalledTimes(1);
    expect(onLoadEnd).toHaveBeenCalledWith({ remote: 'gifts', id: 'gifts/GamePage', ms: 0, retried: false, ok: true });
    // A page loaded already is not run again.
    loader.warm('gifts', 'GamePage');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
  });

  it('a load that finds an early one under way joins it, and reports its end', async () => {
    let finish: (exports: unknown) => void = () => undefined;
    const runtime = fakeRuntime(() => new Promise((resolve) => (finish = resolve)));
    const onLoadEnd = jest.fn();
    const loader = createRemoteLoader({ config, runtime, onLoadEnd });
    loader.warm('gifts', 'GiftPage');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const loading = loader.load('gifts', 'GiftPage');
    finish({ default: Page });
    await expect(loading).resolves.toBe(Page);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
    expect(onLoadEnd).toHaveBeenCalledTimes(1);
    expect(onLoadEnd).toHaveBeenCalledWith(expect.objectContaining({ id: 'gifts/GiftPage', ok: true }));
  });

  it('an early load that fails reports nothing and is forgotten: the next load tries again, and it is not repeated', async () => {
    let failures = 3;
    const runtime = fakeRuntime(async () => {
      if (failures-- > 0) throw Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' });
      return { default: Page };
    });
    const onLoadEnd = jest.fn();
    const onLoadRetry = jest.fn();
    const log = jest.fn();
    const loader = createRemoteLoader({ config, runtime, onLoadEnd, onLoadRetry, log, retryDelaysMs: [1, 1] });
    loader.warm('gifts', 'GamePage');
    await waitUntil(() => log.mock.calls.some(([message]) => String(message).includes('ahead of need failed')));
    expect(runtime.loadRemote).toHaveBeenCalledTimes(3);
    expect(onLoadEnd).not.toHaveBeenCalled();
    expect(onLoadRetry).not.toHaveBeenCalled();

    loader.warm('gifts', 'GamePage');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(runtime.loadRemote).toHaveBeenCalledTimes(3);

    await expect(loader.load('gifts', 'GamePage')).resolves.toBe(Page);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(4);
    expect(onLoadEnd).toHaveBeenCalledTimes(1);
    expect(onLoadEnd).toHaveBeenCalledWith(expect.objectContaining({ ok: true, retried: false }));
  });
});

describe('last known good', () => {
  const CURRENT = 'http://localhost:3001/builds/c2/mf-manifest.json';
  const FALLBACK = 'http://localhost:3001/builds/s1/mf-manifest.json';
  const withFallback = parseRuntimeConfig({
    remotes: { ...everyRemote(), gifts: CURRENT },
    remoteBuilds: { gifts: 'c2' },
    remoteFallbacks: { gifts: FALLBACK },
    apiBaseUrl: 'http://localhost:3004',
    remoteTimeoutMs: 5_000,
  });
  const chunkGone = () =>
    Object.assign(new Error('Loading chunk 7 failed.\n(missing: http://localhost:3001/builds/c2/7.js)'), {
      name: 'ChunkLoadError',
    });

  /** A runtime whose remote `gifts` loads only from the fallback's manifest. */
  function runtimeWithBrokenBuild(fallbackLoads: (id: string) => Promise<unknown> = async () => ({ default: Page })) {
    let entry = CURRENT;
    const runtime = fakeRuntime((id) => (entry === FALLBACK ? fallbackLoads(id) : Promise.reject(chunkGone())));
    runtime.registerRemotes.mockImplementation((remotes: { name: string; entry: string }[]) => {
      entry = remotes.find(({ name }) => name === 'gifts')?.entry ?? entry;
    });
    return runtime;
  }

  afterEach(() => sessionStorage.clear());

  it("loads the fallback build after the retries, reports the switch, and the remote's later loads use it", async () => {
    const runtime = runtimeWithBrokenBuild();
    const onFallback = jest.fn();
    const onRemoteLoaded = jest.fn();
    const loader = createRemoteLoader({
      config: withFallback,
      runtime,
      log: jest.fn(),
      retryDelaysMs: [1, 1],
      onFallback,
      onRemoteLoaded,
    });

    await expect(loader.load('gifts', 'GamePage')).resolves.toBe(Page);

    expect(runtime.registerRemotes).toHaveBeenLastCalledWith([{ name: 'gifts', entry: FALLBACK }], { force: true });
    // Three attempts of the broken build, one of the fallback.
    expect(runtime.loadRemote).toHaveBeenCalledTimes(4);
    expect(onFallback).toHaveBeenCalledWith({ remote: 'gifts', id: 'gifts/GamePage', error: chunkGone(), to: 's1' });
    expect(onRemoteLoaded).toHaveBeenCalledWith('gifts', FALLBACK, 's1');
    await expect(loader.load('gifts', 'GiftPage')).resolves.toBe(Page);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(5);
    expect(runtime.registerRemotes).toHaveBeenCalledTimes(2);
    expect(onFallback).toHaveBeenCalledTimes(1);
  });

  it('switches once when several loads of the remote fail together', async () => {
    const runtime = runtimeWithBrokenBuild();
    const loader = createRemoteLoader({
      config: withFallback,
      runtime,
      log: jest.fn(),
      retryDelaysMs: [],
    });
    await expect(Promise.all([loader.load('gifts', 'GamePage'), loader.load('gifts', 'GiftPage')])).resolves.toEqual([
      Page,
      Page,
    ]);
    expect(runtime.registerRemotes).toHaveBeenCalledTimes(2);
  });

  it('goes on as before when the fallback fails too: the failure reaches the route, with no second switch', async () => {
    const runtime = runtimeWithBrokenBuild(() => Promise.reject(chunkGone()));
    const onLoadEnd = jest.fn();
    const loader = createRemoteLoader({
      config: withFallback,
      runtime,
      log: jest.fn(),
      retryDelaysMs: [1],
      onLoadEnd,
    });
    await expect(loader.load('gifts', 'GamePage')).rejects.toMatchObject({ name: 'ChunkLoadError' });
    await expect(loader.load('gifts', 'GamePage')).rejects.toMatchObject({ name: 'ChunkLoadError' });
    expect(runtime.registerRemotes).toHaveBeenCalledTimes(2);
    expect(onLoadEnd).toHaveBeenCalledWith(expect.objectContaining({ ok: false, id: 'gifts/GamePage' }));
  });

  it('does not fall back after a timeout, a broken module, or without a fallback', async () => {
    const broken = runtimeWithBrokenBuild();
    broken.loadRemote.mockImplementation(() => Promise.reject(new TypeError('x is not a function')));
    const loader = createRemoteLoader({ config: withFallback, runtime: broken, retryDelaysMs: [] });
    await expect(loader.load('gifts', 'GamePage')).rejects.toThrow(TypeError);

    const plain = runtimeWithBrokenBuild();
    const noFallback = createRemoteLoader({ config, runtime: plain, log: jest.fn(), retryDelaysMs: [] });
    await expect(noFallback.load('gifts', 'GamePage')).rejects.toMatchObject({ name: 'ChunkLoadError' });

    jest.useFakeTimers();
    try {
      const hanging = runtimeWithBrokenBuild();
      hanging.loadRemote.mockImplementation(() => new Promise(() => undefined));
      const slow = createRemoteLoader({ config: withFallback, runtime: hanging });
      const loading = slow.load('gifts', 'GamePage');
      const assertion = expect(loading).rejects.toMatchObject({ name: 'RemoteTimeoutError' });
      await jest.advanceTimersByTimeAsync(5_000);
      await assertion;
    } finally {
      jest.useRealTimers();
    }
    for (const runtime of [broken, plain]) expect(runtime.registerRemotes).toHaveBeenCalledTimes(1);
    expect(sessionStorage.length).toBe(0);
  });

  it('a page that starts with a build this tab found broken loads the fallback at once, until the mark expires', async () => {
    const runtime = runtimeWithBrokenBuild();
    const first = createRemoteLoader({
      config: withFallback,
      runtime,
      log: jest.fn(),
      retryDelaysMs: [],
    });
    await first.load('gifts', 'GamePage');

    const next = runtimeWithBrokenBuild();
    const onRemoteLoaded = jest.fn();
    const nextPage = createRemoteLoader({ config: withFallback, runtime: next, onRemoteLoaded });
    expect(next.registerRemotes).toHaveBeenCalledWith(expect.arrayContaining([{ name: 'gifts', entry: FALLBACK }]));
    await expect(nextPage.load('gifts', 'GamePage')).resolves.toBe(Page);
    expect(next.loadRemote).toHaveBeenCalledTimes(1);
    expect(onRemoteLoaded).toHaveBeenCalledWith('gifts', FALLBACK, 's1');

    // Another build assigned to the page (the next canary) is not the broken one.
    const other = fakeRuntime(async () => ({ default: Page }));
    createRemoteLoader({ config: { ...withFallback, remoteBuilds: { gifts: 'c3' } }, runtime: other });
    expect(other.registerRemotes).toHaveBeenCalledWith(expect.arrayContaining([{ name: 'gifts', entry: CURRENT }]));

    jest.useFakeTimers({ now: Date.now() + SESSION_BUILDS_MS + 1 });
    try {
      const later = fakeRuntime(async () => ({ default: Page }));
      createRemoteLoader({ config: withFallback, runtime: later });
      expect(later.registerRemotes).toHaveBeenCalledWith(expect.arrayContaining([{ name: 'gifts', entry: CURRENT }]));
    } finally {
      jest.useRealTimers();
    }
  });
});
