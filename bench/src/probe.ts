/**
 * What the bench reads inside the page, installed before any of the page's own scripts run:
 * FCP and LCP (PerformanceObserver), and when the route's real content became visible.
 *
 * The content is an element matching the route's selector that is in the DOM with text, has a
 * box, is not hidden (checkVisibility) and is not inside an `aria-busy="true"` region. The probe
 * looks at the DOM only, never at React, so text the host's server prerendered into the HTML
 * counts from the first paint. Each time it checks (on DOM mutations, which run before the next
 * paint, and at the start of every animation frame) it marks what it finds for Element Timing,
 * whose entry gives the paint time on the same clock as FCP and LCP; when a paint cannot be
 * reported (an element marked after its first paint), the start of the first frame that showed
 * it stands in. `arm(selector)` starts watching for another route's content, for a client-side
 * navigation. A string, not a function, so no transpiler helper leaks into the page.
 */
export interface ProbeState {
  /** ms since the document's time origin. */
  fcp: number | null;
  lcp: number | null;
  /** When the content was painted (Element Timing), when the page could tell. */
  visiblePainted: number | null;
  /** The start of the first frame that showed the content. */
  visibleFrame: number | null;
  /** When the content was first seen in the DOM (a mutation), a fallback when no frame ran. */
  visibleInDom: number | null;
  /** The latest click anywhere in the page. */
  clickedAt: number | null;
  /** Event Timing entries of interactions (interactionId > 0) since the probe was last armed. */
  events: EventTimingEntry[];
}

/** What the bench keeps of a PerformanceEventTiming entry. */
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
  // Interaction to next paint, as web-vitals reads it: event entries of 16 ms and more that
  // belong to an interaction (interactionId > 0); inp.ts reduces them.
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
  // Marks what it finds for Element Timing: before its first paint, so that paint is reported.
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
 * What runs in the page after the probe, as functions rather than strings: the host's servers
 * send a Content-Security-Policy without 'unsafe-eval', and playwright evaluates a string
 * predicate of `waitForFunction` with the page's own `eval` at every poll, which the policy
 * refuses. A function predicate is turned into a function once, inside the DevTools protocol's
 * call (which the policy does not govern), and then only called. The bodies must stay free of
 * named inner functions and classes: tsx would wrap them in a `__name(…)` helper the page has
 * not got (pageFunction checks that).
 */
type ProbeWindow = Record<string, (ProbeState & { arm(selector: string): void }) | undefined>;

/** `fn`, unchanged, once it is known to carry no transpiler helper into the page. */
export function pageFunction<F extends (...args: never[]) => unknown>(fn: F): F {
  if (/\b__name\(/.test(String(fn))) {
    throw new Error(`a function for the page carries tsx's __name helper (a named inner function?): ${String(fn)}`);
  }
  return fn;
}

/** The probe's state without its functions, or null when the probe is not there. */
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

/** True once the content is visible (or seen in the DOM). */
export const contentVisibleInPage = pageFunction((global: string): boolean => {
  const s = (window as unknown as ProbeWindow)[global];
  return !!s && (s.visibleFrame !== null || s.visibleInDom !== null);
});

/** True once the probe has seen an entry of a click since it was armed. */
export const interactedInPage = pageFunction((global: string): boolean => {
  const s = (window as unknown as ProbeWindow)[global];
  return !!s && s.events.some((entry) => entry.name === 'click');
});

/** Starts watching for another route's content (a client-side navigation). */
export const armInPage = pageFunction(({ global, selector }: { global: string; selector: string }): void => {
  const s = (window as unknown as ProbeWindow)[global];
  if (!s) throw new Error('the bench probe is missing');
  s.arm(selector);
});

export const timeOriginInPage = pageFunction((): number => performance.timeOrigin);

/** What the page shows, for an error message. */
export const shownTextInPage = pageFunction((): string => (document.querySelector('main') ?? document.body).innerText);

/** Resolves once the main thread is idle (at most 5 s). */
export const idleInPage = pageFunction(
  (): Promise<void> => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 })),
);

/**
 * When the content became visible: its paint (Element Timing, comparable with FCP and LCP),
 * else the start of the frame that showed it, else when it entered the DOM.
 */
export function contentVisibleAt(probe: ProbeState): number {
  return probe.visiblePainted ?? probe.visibleFrame ?? probe.visibleInDom ?? Number.NaN;
}
