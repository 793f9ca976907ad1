import { REMOTE_NAMES } from 'shared/remotes';
import { watchLcpParts } from './lcp-parts';
import { pageParts } from './parts';

/** The browser's PerformanceObserver, faked: entries it has not delivered yet, and its callback. */
class FakeObserver {
  static current: FakeObserver | undefined;
  pending: PerformanceEntry[] = [];
  options: PerformanceObserverInit | undefined;
  constructor(readonly callback: (list: { getEntries(): PerformanceEntry[] }) => void) {
    FakeObserver.current = this;
  }
  observe(options: PerformanceObserverInit) {
    this.options = options;
  }
  deliver() {
    const entries = this.takeRecords();
    this.callback({ getEntries: () => entries });
  }
  takeRecords(): PerformanceEntry[] {
    const entries = this.pending;
    this.pending = [];
    return entries;
  }
}

const candidate = (startTime: number, element: Element | null) =>
  ({ startTime, element }) as unknown as PerformanceEntry;

beforeEach(() => {
  Object.defineProperty(window, 'PerformanceObserver', { value: FakeObserver, configurable: true, writable: true });
  document.body.innerHTML = `<main><div data-part="content"><h1>About us</h1></div></main><header><p>Gift Box</p></header>`;
});

describe('the part of each LCP candidate', () => {
  it('is read as the browser reports it, and kept once the prerendered markup is replaced', () => {
    const parts = watchLcpParts(pageParts(REMOTE_NAMES));
    const observer = FakeObserver.current as FakeObserver;
    expect(observer.options).toEqual({ type: 'largest-contentful-paint', buffered: true });
    const heading = document.querySelector('h1');
    observer.pending.push(candidate(300, document.querySelector('header p')), candidate(812, heading));
    observer.deliver();

    // The app takes the page over: the prerendered heading leaves the document.
    document.body.innerHTML = '<main><div data-part="content"><h1>About us</h1></div></main>';
    expect(parts.partOf(candidate(812, null))).toBe('content');
    expect(parts.partOf(candidate(300, null))).toBe('host');
    expect(parts.partOf(undefined)).toBeUndefined();
  });

  it('reads what the browser has not delivered yet when asked, before the takeover', () => {
    const parts = watchLcpParts(pageParts(REMOTE_NAMES));
    const observer = FakeObserver.current as FakeObserver;
    observer.pending.push(candidate(640, document.querySelector('h1')));
    parts.takeRecords();
    document.body.innerHTML = '';
    expect(parts.partOf(candidate(640, null))).toBe('content');
  });

  it('gives none in a browser without LCP', () => {
    Object.defineProperty(window, 'PerformanceObserver', {
      value: class {
        observe() {
          throw new TypeError('unsupported entry type');
        }
      },
      configurable: true,
    });
    const parts = watchLcpParts(pageParts(REMOTE_NAMES));
    expect(() => parts.takeRecords()).not.toThrow();
    expect(parts.partOf(candidate(1, null))).toBeUndefined();
  });
});
