import {
  afterFirstPage,
  FIRST_PAGE_TIMEOUT_MS,
  IDLE_TIMEOUT_MS,
  type AfterPaintDeps,
  type RouterLike,
} from './after-first-paint';

type State = RouterLike['state'];

/** A router whose state the test moves, as react-router's data router notifies subscribers. */
function fakeRouter(initial: State) {
  const listeners = new Set<(state: State) => void>();
  const router = {
    state: initial,
    subscribe(listener: (state: State) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    move(state: State) {
      router.state = state;
      for (const listener of [...listeners]) listener(state);
    },
    listenerCount: () => listeners.size,
  };
  return router;
}

const LOADING: State = { initialized: false, navigation: { state: 'idle' } };
const SETTLED: State = { initialized: true, navigation: { state: 'idle' } };

/** Records the order of frames, timeouts and idle callbacks; the test runs them one by one. */
function fakeScheduler(withIdle = true) {
  const queue: Array<{ kind: string; run: () => void; ms?: number }> = [];
  const deps: AfterPaintDeps = {
    requestAnimationFrame: (run) => queue.push({ kind: 'frame', run }),
    setTimeout: (run, ms) => {
      const entry = { kind: 'timeout', run, ms };
      queue.push(entry);
      return entry;
    },
    clearTimeout: (handle) => {
      const index = queue.indexOf(handle as (typeof queue)[number]);
      if (index >= 0) queue.splice(index, 1);
    },
    requestIdleCallback: withIdle ? (run, options) => queue.push({ kind: `idle ${options.timeout}`, run }) : undefined,
  };
  const next = (kind: string) => {
    const index = queue.findIndex((entry) => entry.kind === kind);
    if (index < 0)
      throw new Error(`nothing scheduled as ${kind}; queued: ${queue.map((entry) => entry.kind).join(', ')}`);
    const [entry] = queue.splice(index, 1);
    entry?.run();
    return entry;
  };
  return { deps, queue, next };
}

describe('afterFirstPage', () => {
  it('waits for the first navigation to settle, then a frame, a paint and an idle moment', () => {
    const router = fakeRouter(LOADING);
    const scheduler = fakeScheduler();
    const task = jest.fn();
    afterFirstPage(router, { chat: task }, scheduler.deps);

    router.move({ initialized: true, navigation: { state: 'loading' } });
    expect(scheduler.queue.map((entry) => entry.kind)).toStrictEqual(['timeout']);
    router.move(SETTLED);
    expect(router.listenerCount()).toBe(0);
    expect(scheduler.queue.map((entry) => entry.kind)).toStrictEqual(['frame']);

    scheduler.next('frame');
    expect(scheduler.next('timeout')?.ms).toBe(0);
    expect(task).not.toHaveBeenCalled();
    scheduler.next(`idle ${IDLE_TIMEOUT_MS}`);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('starts straight after the next paint when the first page is already there', () => {
    const scheduler = fakeScheduler(false);
    const task = jest.fn();
    afterFirstPage(fakeRouter(SETTLED), { analytics: task }, scheduler.deps);
    scheduler.next('frame');
    scheduler.next('timeout');
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('starts anyway when the first page takes longer than the limit, and only once', () => {
    const router = fakeRouter(LOADING);
    const scheduler = fakeScheduler(false);
    const task = jest.fn();
    afterFirstPage(router, { chat: task }, scheduler.deps);

    expect(scheduler.next('timeout')?.ms).toBe(FIRST_PAGE_TIMEOUT_MS);
    router.move(SETTLED);
    scheduler.next('frame');
    scheduler.next('timeout');
    expect(task).toHaveBeenCalledTimes(1);
    expect(scheduler.queue).toHaveLength(0);
  });

  it('logs a task that throws and still runs the others', () => {
    const scheduler = fakeScheduler(false);
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const chat = jest.fn();
    afterFirstPage(
      fakeRouter(SETTLED),
      {
        analytics: () => {
          throw new Error('broken');
        },
        chat,
      },
      scheduler.deps,
    );
    scheduler.next('frame');
    scheduler.next('timeout');
    expect(chat).toHaveBeenCalledTimes(1);
    expect(consoleError).toHaveBeenCalledWith('analytics could not start', expect.any(Error));
    consoleError.mockRestore();
  });
});
