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
}

export const PROBE_GLOBAL = '__benchProbe';

export function probeScript(selector: string): string {
  return `(() => {
  const state = {
    fcp: null, lcp: null, visiblePainted: null, visibleFrame: null, visibleInDom: null, clickedAt: null,
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
    Object.assign(state, { selector, mark: 'bench-content-' + state.armed, visiblePainted: null, visibleFrame: null, visibleInDom: null });
    const armed = state.armed;
    requestAnimationFrame(() => onFrame(armed));
  };
  requestAnimationFrame(() => onFrame(1));
})();`;
}

/** A page expression: the probe's state without its functions. */
export const READ_PROBE = `(() => { const s = window.${PROBE_GLOBAL}; return s ? { fcp: s.fcp, lcp: s.lcp, visiblePainted: s.visiblePainted, visibleFrame: s.visibleFrame, visibleInDom: s.visibleInDom, clickedAt: s.clickedAt } : null; })()`;

/** A page expression, true once the content is visible (or seen in the DOM). */
export const CONTENT_VISIBLE = `(() => { const s = window.${PROBE_GLOBAL}; return !!s && (s.visibleFrame !== null || s.visibleInDom !== null); })()`;

/**
 * When the content became visible: its paint (Element Timing, comparable with FCP and LCP),
 * else the start of the frame that showed it, else when it entered the DOM.
 */
export function contentVisibleAt(probe: ProbeState): number {
  return probe.visiblePainted ?? probe.visibleFrame ?? probe.visibleInDom ?? Number.NaN;
}
