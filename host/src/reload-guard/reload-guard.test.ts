import { RELOAD_GUARD_KEY, RELOAD_GUARD_WINDOW_MS, reloadOnce, type ReloadGuardDeps } from './reload-guard';

function setup(overrides: Partial<ReloadGuardDeps> = {}) {
  let now = 1_700_000_000_000;
  let current = '/about';
  const reload = jest.fn();
  const assign = jest.fn((path: string) => {
    current = path;
  });
  const deps: ReloadGuardDeps = {
    storage: () => window.sessionStorage,
    now: () => now,
    currentPath: () => current,
    reload,
    assign,
    ...overrides,
  };
  return {
    deps,
    reload,
    assign,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

beforeEach(() => window.sessionStorage.clear());

describe('reload guard', () => {
  it('reloads once for a path and records { path, expires } in sessionStorage', () => {
    const { deps, reload } = setup();
    expect(reloadOnce('/about', deps)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(JSON.parse(window.sessionStorage.getItem(RELOAD_GUARD_KEY) ?? '')).toEqual({
      path: '/about',
      expires: deps.now() + RELOAD_GUARD_WINDOW_MS,
    });
  });

  it('tells telemetry of each reload it makes, before it starts, and of none it refuses', () => {
    const calls: string[] = [];
    const { deps, advance } = setup({
      onReload: (path) => calls.push(`report ${path}`),
      reload: () => calls.push('reload'),
      assign: (path) => calls.push(`assign ${path}`),
    });
    reloadOnce('/about', deps);
    advance(1_000);
    reloadOnce('/about', deps);
    reloadOnce('/game', deps);
    expect(calls).toEqual(['report /about', 'reload', 'report /game', 'assign /game']);
  });

  it('does not reload the same path again within 10 seconds', () => {
    const { deps, reload, advance } = setup();
    reloadOnce('/about', deps);
    advance(9_999);
    expect(reloadOnce('/about', deps)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again once the 10 second window has passed', () => {
    const { deps, reload, advance } = setup();
    reloadOnce('/about', deps);
    advance(10_000);
    expect(reloadOnce('/about', deps)).toBe(true);
    advance(1);
    expect(reloadOnce('/about', deps)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('counts from when the failed load started, so a load that hangs past the window cannot loop', () => {
    const { deps, reload, advance } = setup();
    reloadOnce('/game', { ...deps, currentPath: () => '/game' });
    // The reloaded page starts loading at once; its remote hangs until a 10 s timeout.
    const startedAt = deps.now() + 500;
    advance(10_500);
    expect(reloadOnce('/game', { ...deps, currentPath: () => '/game' }, startedAt)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // A new attempt that starts after the window may reload again.
    advance(1);
    expect(reloadOnce('/game', { ...deps, currentPath: () => '/game' }, deps.now())).toBe(true);
  });

  it('loads the target path when the failure happened navigating elsewhere', () => {
    const { deps, reload, assign } = setup();
    expect(reloadOnce('/terms', deps)).toBe(true);
    expect(assign).toHaveBeenCalledWith('/terms');
    expect(reload).not.toHaveBeenCalled();
  });

  it('guards each path on its own: another path may reload inside the window', () => {
    const { deps, reload, assign } = setup();
    reloadOnce('/about', deps);
    expect(reloadOnce('/terms', deps)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith('/terms');
  });

  it('ignores an unreadable entry and reloads', () => {
    const { deps, reload } = setup();
    window.sessionStorage.setItem(RELOAD_GUARD_KEY, '{not json');
    expect(reloadOnce('/about', deps)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('never throws and never risks a loop when storage fails', () => {
    const throwing = {
      storage: (): Storage => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    const a = setup(throwing);
    expect(reloadOnce('/about', a.deps)).toBe(false);
    expect(a.reload).not.toHaveBeenCalled();

    const full = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    } as unknown as Storage;
    const b = setup({ storage: () => full });
    expect(() => reloadOnce('/about', b.deps)).not.toThrow();
    expect(b.reload).not.toHaveBeenCalled();
  });
});
