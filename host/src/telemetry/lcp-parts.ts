/**
 * The part of the page each Largest Contentful Paint candidate was in, taken as the browser
 * reports it. A prerendered page's text is the server's markup until the app takes the page over
 * and replaces it with its own: by the time the web-vitals library (loaded after the first
 * content) reads the candidate, its element is gone from the document and names no part. This
 * runs from the start, and once more just before the takeover.
 */
import type { PageParts } from './parts';

export interface LcpParts {
  /** Reads the candidates the browser has not delivered yet; call before the app replaces the page's markup. */
  takeRecords(): void;
  /** The part a candidate was in, by its time. */
  partOf(entry: PerformanceEntry | undefined): string | undefined;
}

interface LcpEntry extends PerformanceEntry {
  readonly element: Element | null;
}

export function watchLcpParts({ partOf }: Pick<PageParts, 'partOf'>): LcpParts {
  const parts = new Map<number, string>();
  const take = (entries: PerformanceEntryList) => {
    for (const entry of entries) {
      const { element } = entry as LcpEntry;
      if (element) parts.set(entry.startTime, partOf(element));
    }
  };
  let observer: PerformanceObserver | undefined;
  try {
    observer = new PerformanceObserver((list) => take(list.getEntries()));
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  } catch {
    observer = undefined; // a browser without LCP reports none
  }
  return {
    takeRecords: () => take(observer?.takeRecords() ?? []),
    partOf: (entry) => (entry ? parts.get(entry.startTime) : undefined),
  };
}
