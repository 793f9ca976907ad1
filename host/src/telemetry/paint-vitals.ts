/**
 * LCP, FCP and TTFB, read from the browser's timeline by the host's first script, from the page's
 * start: a visitor who leaves before the web-vitals chunk (loaded after the first content) has
 * arrived and read its entries still sends them. They are read as web-vitals reads them: each
 * from the page's activation, only what was painted before the page was first hidden, final at
 * the first key press, click or hiding, when the entries the browser has not delivered yet are
 * taken too.
 *
 * LCP's part is taken as the browser reports each candidate: a prerendered page's text is the
 * server's markup until the app takes the page over and replaces it with its own, and a candidate
 * whose element has left the document names no part. The browser reports a paint some frames
 * after it happened, so before the takeover the app waits for `firstPaintReported` (the
 * candidates painted with the first content are reported with it), then reads them with
 * `takeRecords`.
 */
import { HOST_PART } from 'shared/telemetry-values';
import type { PageParts } from './parts';

export type PaintVitalName = 'LCP' | 'FCP' | 'TTFB';

/** A vital read from the timeline, in milliseconds from the page's activation. */
export interface PaintVital {
  name: PaintVitalName;
  value: number;
  /** The part that owns it: the host's for FCP and TTFB. */
  part: string;
}

export interface PaintVitals {
  /**
   * Once the browser has reported the first contentful paint; at once on a page that is hidden,
   * prerendering or reports no paints, and after FIRST_PAINT_WAIT_MS at most: the app never waits longer.
   */
  firstPaintReported(): Promise<void>;
  /** Reads the candidates the browser has not delivered yet; call before the app replaces the page's markup. */
  takeRecords(): void;
  /** Reports the vitals once (a later call does nothing): the page is being hidden, or was used. */
  finalize(): void;
}

interface LcpEntry extends PerformanceEntry {
  readonly element: Element | null;
}

/** How long the app waits at most for its first paint to be reported before it takes the page over. */
export const FIRST_PAINT_WAIT_MS = 500;

/** The events after which the browser stops reporting LCP candidates (web-vitals' own). */
const FINAL_INPUTS = ['keydown', 'click'] as const;

function observe(type: string, take: (entries: PerformanceEntryList) => void): PerformanceObserver | undefined {
  try {
    const observer = new PerformanceObserver((list) => take(list.getEntries()));
    observer.observe({ type, buffered: true });
    return observer;
  } catch {
    return undefined; // a browser without this entry type reports none of it
  }
}

function navigationTiming(): (PerformanceNavigationTiming & { activationStart?: number }) | undefined {
  return performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
}

/** `report`: called once per vital found, when the vitals are final. */
export function watchPaintVitals(
  { partOf }: Pick<PageParts, 'partOf'>,
  report: (vital: PaintVital) => void,
): PaintVitals {
  let firstHidden = document.visibilityState === 'hidden' ? 0 : Infinity;
  let largest: { startTime: number; part: string } | undefined;
  let firstContent: number | undefined;
  let contentReported = () => {};
  const reported = new Promise<void>((resolve) => (contentReported = resolve));
  const takeLcp = (entries: PerformanceEntryList) => {
    for (const entry of entries) {
      const { element } = entry as LcpEntry;
      if (entry.startTime < firstHidden) largest = { startTime: entry.startTime, part: partOf(element) };
    }
  };
  const takePaint = (entries: PerformanceEntryList) => {
    for (const entry of entries)
      if (entry.name === 'first-contentful-paint') {
        if (entry.startTime < firstHidden) firstContent = entry.startTime;
        contentReported();
      }
  };
  const lcp = observe('largest-contentful-paint', takeLcp);
  const paint = observe('paint', takePaint);
  let final = false;

  const finalize = () => {
    if (final) return;
    final = true;
    takeLcp(lcp?.takeRecords() ?? []);
    takePaint(paint?.takeRecords() ?? []);
    lcp?.disconnect();
    paint?.disconnect();
    for (const type of FINAL_INPUTS) removeEventListener(type, onInput, true);
    const navigation = navigationTiming();
    const since = (time: number) => Math.max(time - (navigation?.activationStart ?? 0), 0);
    if (navigation && navigation.responseStart > 0)
      report({ name: 'TTFB', value: since(navigation.responseStart), part: HOST_PART });
    if (firstContent !== undefined) report({ name: 'FCP', value: since(firstContent), part: HOST_PART });
    if (largest) report({ name: 'LCP', value: since(largest.startTime), part: largest.part });
  };
  const onInput = (event: Event) => {
    if (event.isTrusted) finalize();
  };
  for (const type of FINAL_INPUTS) addEventListener(type, onInput, true);
  addEventListener(
    'visibilitychange',
    (event) => {
      if (document.visibilityState === 'hidden') firstHidden = Math.min(firstHidden, event.timeStamp);
    },
    true,
  );
  return {
    firstPaintReported() {
      const prerendering = (document as Document & { prerendering?: boolean }).prerendering === true;
      if (!paint || prerendering || document.visibilityState === 'hidden') return Promise.resolve();
      takePaint(paint.takeRecords());
      return Promise.race([reported, new Promise<void>((resolve) => setTimeout(resolve, FIRST_PAINT_WAIT_MS))]);
    },
    takeRecords: () => takeLcp(lcp?.takeRecords() ?? []),
    finalize,
  };
}
