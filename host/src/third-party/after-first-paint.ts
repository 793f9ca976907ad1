/**
 * When third parties start: once the first page is on screen. The router's first navigation
 * has settled (the page, or its error, has rendered) or a time limit has passed, then the
 * browser has painted, then an idle moment comes. No widget, tag or analytics script competes
 * with the first paint or with the page's own files. A task that throws is logged only.
 */
export interface AfterPaintDeps {
  requestAnimationFrame: (callback: () => void) => unknown;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  requestIdleCallback?: (callback: () => void, options: { timeout: number }) => unknown;
}

/** Longest wait for an idle moment before starting anyway. */
export const IDLE_TIMEOUT_MS = 2_000;
/** Longest wait for the first page (a slow remote) before starting anyway. */
export const FIRST_PAGE_TIMEOUT_MS = 5_000;

/** The part of react-router's data router this needs. */
export interface RouterLike {
  readonly state: { initialized: boolean; navigation: { state: string } };
  subscribe(listener: (state: RouterLike['state']) => void): () => void;
}

export function browserAfterPaintDeps(): AfterPaintDeps {
  return {
    requestAnimationFrame: (callback) => window.requestAnimationFrame(callback),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    requestIdleCallback:
      typeof window.requestIdleCallback === 'function'
        ? (callback, options) => window.requestIdleCallback(callback, options)
        : undefined,
  };
}

function runLogged(name: string, task: () => void): void {
  try {
    task();
  } catch (error) {
    console.error(`${name} could not start`, error);
  }
}

const settled = (state: RouterLike['state']) => state.initialized && state.navigation.state === 'idle';

/** Calls `ready` once, when the first navigation has settled or after FIRST_PAGE_TIMEOUT_MS. */
export function whenFirstPageSettled(router: RouterLike, ready: () => void, deps: AfterPaintDeps): void {
  if (settled(router.state)) {
    ready();
    return;
  }
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    unsubscribe();
    deps.clearTimeout(timer);
    ready();
  };
  const unsubscribe = router.subscribe((state) => {
    if (settled(state)) finish();
  });
  const timer = deps.setTimeout(finish, FIRST_PAGE_TIMEOUT_MS);
}

/**
 * Runs the tasks after the next paint, at an idle moment. The animation frame comes before the
 * next paint and the zero timeout after it.
 */
export function afterNextPaint(tasks: Record<string, () => void>, deps: AfterPaintDeps): void {
  const runAll = () => {
    for (const [name, task] of Object.entries(tasks)) runLogged(name, task);
  };
  deps.requestAnimationFrame(() => {
    deps.setTimeout(() => {
      if (deps.requestIdleCallback) deps.requestIdleCallback(runAll, { timeout: IDLE_TIMEOUT_MS });
      else runAll();
    }, 0);
  });
}

/** Call from the application's first committed render (an effect). */
export function afterFirstPage(
  router: RouterLike,
  tasks: Record<string, () => void>,
  deps: AfterPaintDeps = browserAfterPaintDeps(),
): void {
  whenFirstPageSettled(router, () => afterNextPaint(tasks, deps), deps);
}
