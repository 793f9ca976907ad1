/**
 * LCP, FCP and TTFB from the first script, read as web-vitals reads them, so a visitor who leaves
 * before the web-vitals chunk still sends them. LCP's part is read before the app replaces the
 * server's markup: a candidate whose element has left the document names no part.
 */
import { HOST_PART } from 'shared/telemetry-values';
import type { PageParts } from './parts';

export type PaintVitalName = 'LCP' | 'FCP' | 'TTFB';

/** In ms from the page's activation. */
export interface PaintVital {
  name: PaintVitalName;
  value: number;
  part: string;
}

export interface PaintVitals {
  /** At most FIRST_PAINT_WAIT_MS: a paint is reported some frames after it happened. */
  firstPaintReported(): Promise<void>;
  /** Before the app replaces the page's markup. */
  takeRecords(): void;
  finalize(): void;
}

interface LcpEntry extends PerformanceEntry {
  readonly element: Element | null;
}

export const FIRST_PAINT_WAIT_MS = 500;

/** web-vitals' own. */
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
