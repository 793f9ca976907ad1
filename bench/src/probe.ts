/**
 * What the bench reads inside the page, installed before the page's own scripts: FCP, LCP, and
 * when the route's content became visible. It reads the DOM only, never React, so prerendered
 * text counts from the first paint; it marks what it finds for Element Timing so the paint is
 * timed on FCP's clock. A string, so no transpiler helper leaks into the page.
 */
export interface ProbeState {
  /** ms since the document's time origin. */
  fcp: number | null;
  lcp: number | null;
  visiblePainted: number | null;
  visibleFrame: number | null;
  visibleInDom: number | null;
  clickedAt: number | null;
  events: EventTimingEntry[];
}

export interface EventTimingEntry {
  name: string;
  interactionId: number;
  duration: number;
}

export const PROBE_GLOBAL = '__benchProbe';

export function probeScript(selector: string): string {
  return `(() => {
  const state = {
    fcp: null, lcp: null, visiblePainted: null, visibleFrame: null, visibleInDom: null, clickedAt: null, events: [],
    selector: ${JSON.stringify(selector)}, mark: 'bench-content-1', armed: 1,
  };
  Object.defineProperty(window, ${JSON.stringify(PROBE_GLOBAL)}, { value: state, configurable: true });
  function observe(type, onEntry) {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true });
    } catch (error) {
      console.warn('bench probe: no ' + type + ' entries', error);
    }
  }
  observe('paint', (entry) => { if (entry.name === 'first-contentful-paint') state.fcp = entry.startTime; });
  observe('largest-contentful-paint', (entry) => { state.lcp = entry.startTime; });
  // Interaction to next paint, as web-vitals reads it (inp.ts reduces the entries).
  try {
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => {
      if (entry.interactionId > 0) state.events.push({ name: entry.name, interactionId: entry.interactionId, duration: entry.duration });
    })).observe({ type: 'event', durationThreshold: 16, buffered: true });
  } catch (error) {
    console.warn('bench probe: no event entries', error);
  }
  observe('element', (entry) => {
    if (entry.identifier === state.mark && state.visiblePainted === null) state.visiblePainted = entry.startTime;
  });
  function shown(element) {
    if (!(element.textContent || '').trim() || element.closest('[aria-busy="true"]')) return false;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    return typeof element.checkVisibility !== 'function' || element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  }
  // Marked before its first paint, so that paint is reported.
  function contentShown() {
    let found = false;
    for (const element of document.querySelectorAll(state.selector)) {
      if (!shown(element)) continue;
      if (!element.hasAttribute('elementtiming')) element.setAttribute('elementtiming', state.mark);
      found = true;
    }
    return found;
  }
  function onFrame(armed) {
    if (armed !== state.armed || state.visibleFrame !== null) return;
    if (contentShown()) state.visibleFrame = performance.now();
    else requestAnimationFrame(() => onFrame(armed));
  }
  new MutationObserver(() => {
    if (state.visibleInDom === null && contentShown()) state.visibleInDom = performance.now();
  }).observe(document, { childList: true, subtree: true, characterData: true });
  addEventListener('click', () => { state.clickedAt = performance.now(); }, true);
  state.arm = (selector) => {
    state.armed += 1;
    Object.assign(state, { selector, mark: 'bench-content-' + state.armed, visiblePainted: null, visibleFrame: null, visibleInDom: null, events: [] });
    const armed = state.armed;
    requestAnimationFrame(() => onFrame(armed));
  };
  requestAnimationFrame(() => onFrame(1));
})();`;
}

/**
 * Functions, not strings: the host's CSP refuses the `eval` playwright uses for a string
 * predicate. No named inner functions or classes: tsx would wrap them in a `__name` helper.
 */
type ProbeWindow = Record<string, (ProbeState & { arm(selector: string): void }) | undefined>;

export function pageFunction<F extends (...args: never[]) => unknown>(fn: F): F {
  if (/\b__name\(/.test(String(fn))) {
    throw new Error(`a function for the page carries tsx's __name helper (a named inner function?): ${String(fn)}`);
  }
  return fn;
}

export const readProbeInPage = pageFunction((global: string): ProbeState | null => {
  const s = (window as unknown as ProbeWindow)[global];
  return s
    ? {
        fcp: s.fcp,
        lcp: s.lcp,
        visiblePainted: s.visiblePainted,
        visibleFrame: s.visibleFrame,
        visibleInDom: s.visibleInDom,
        clickedAt: s.clickedAt,
        events: s.events,
      }
    : null;
});

export const contentVisibleInPage = pageFunction((global: string): boolean => {
  const s = (window as unknown as ProbeWindow)[global];
  return !!s && (s.visibleFrame !== null || s.visibleInDom !== null);
});

export const interactedInPage = pageFunction((global: string): boolean => {
  const s = (window as unknown as ProbeWindow)[global];
  return !!s && s.events.some((entry) => entry.name === 'click');
});

export const armInPage = pageFunction(({ global, selector }: { global: string; selector: string }): void => {
  const s = (window as unknown as ProbeWindow)[global];
  if (!s) throw new Error('the bench probe is missing');
  s.arm(selector);
});

export const timeOriginInPage = pageFunction((): number => performance.timeOrigin);

export const shownTextInPage = pageFunction((): string => (document.querySelector('main') ?? document.body).innerText);

export const idleInPage = pageFunction(
  (): Promise<void> => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 })),
);

export function contentVisibleAt(probe: ProbeState): number {
  return probe.visiblePainted ?? probe.visibleFrame ?? probe.visibleInDom ?? Number.NaN;
}
