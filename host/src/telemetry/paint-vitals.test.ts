import { REMOTE_NAMES } from 'shared/remotes';
import { FIRST_PAINT_WAIT_MS, watchPaintVitals, type PaintVital } from './paint-vitals';
import { pageParts } from './parts';

/** The browser's PerformanceObserver, faked: per entry type, the entries it has not delivered yet, and its callback. */
class FakeObserver {
  static byType = new Map<string, FakeObserver>();
  pending: PerformanceEntry[] = [];
  connected = true;
  constructor(readonly callback: (list: { getEntries(): PerformanceEntry[] }) => void) {}
  observe(options: PerformanceObserverInit) {
    FakeObserver.byType.set(options.type ?? '', this);
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
  disconnect() {
    this.connected = false;
  }
}

const observerOf = (type: string) => FakeObserver.byType.get(type) as FakeObserver;
const candidate = (startTime: number, element: Element | null) =>
  ({ startTime, element }) as unknown as PerformanceEntry;
const paint = (name: string, startTime: number) => ({ name, startTime }) as PerformanceEntry;
const navigation = { responseStart: 95.4, activationStart: 0 } as unknown as PerformanceEntry;

function watch(): { reported: PaintVital[]; vitals: ReturnType<typeof watchPaintVitals> } {
  const reported: PaintVital[] = [];
  return { reported, vitals: watchPaintVitals(pageParts(REMOTE_NAMES), (vital) => reported.push(vital)) };
}

beforeEach(() => {
  FakeObserver.byType.clear();
  Object.defineProperty(window, 'PerformanceObserver', { value: FakeObserver, configurable: true, writable: true });
  Object.defineProperty(performance, 'getEntriesByType', {
    value: (type: string) => (type === 'navigation' ? [navigation] : []),
    configurable: true,
  });
  document.body.innerHTML = `<main><div data-part="content"><h1>About us</h1></div></main><header><p>Gift Box</p></header>`;
});

describe('LCP, FCP and TTFB from the start', () => {
  it('are reported once final, LCP as its last candidate in the part its element was in when the browser reported it', () => {
    const { reported, vitals } = watch();
    observerOf('largest-contentful-paint').pending.push(
      candidate(300, document.querySelector('header p')),
      candidate(812, document.querySelector('h1')),
    );
    observerOf('largest-contentful-paint').deliver();
    observerOf('paint').pending.push(paint('first-paint', 280), paint('first-contentful-paint', 300));
    // The app takes the page over: the prerendered heading leaves the document.
    document.body.innerHTML = '<main><div data-part="content"><h1>About us</h1></div></main>';
    expect(reported).toEqual([]);

    vitals.finalize();
    expect(reported).toEqual([
      { name: 'TTFB', value: 95.4, part: 'host' },
      { name: 'FCP', value: 300, part: 'host' },
      { name: 'LCP', value: 812, part: 'content' },
    ]);
    vitals.finalize();
    expect(reported).toHaveLength(3);
    expect(observerOf('largest-contentful-paint').connected).toBe(false);
  });

  it('take what the browser has not delivered yet: before the takeover, and as the page is left', () => {
    const { reported, vitals } = watch();
    observerOf('largest-contentful-paint').pending.push(candidate(640, document.querySelector('h1')));
    vitals.takeRecords();
    document.body.innerHTML = '';
    // Painted, never delivered: a visitor leaving right away still sends them.
    observerOf('paint').pending.push(paint('first-contentful-paint', 610));
    vitals.finalize();
    expect(reported).toEqual([
      { name: 'TTFB', value: 95.4, part: 'host' },
      { name: 'FCP', value: 610, part: 'host' },
      { name: 'LCP', value: 640, part: 'content' },
    ]);
  });

  it("give a candidate whose element left the document before it was reported to the host, and count from the page's activation", () => {
    Object.assign(navigation, { activationStart: 500 });
    try {
      const { reported, vitals } = watch();
      observerOf('largest-contentful-paint').pending.push(candidate(450, null));
      vitals.finalize();
      expect(reported).toEqual([
        { name: 'TTFB', value: 0, part: 'host' },
        { name: 'LCP', value: 0, part: 'host' },
      ]);
    } finally {
      Object.assign(navigation, { activationStart: 0 });
    }
  });

  it("are not made final by a script's click (a visitor's, trusted, is the browser suite's)", () => {
    const { reported, vitals } = watch();
    observerOf('largest-contentful-paint').pending.push(candidate(700, document.querySelector('h1')));
    document.body.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(reported).toEqual([]);
    vitals.finalize();
    expect(reported.map(({ name }) => name)).toEqual(['TTFB', 'LCP']);
  });

  it('leave out what was painted after the page was first hidden', () => {
    const { reported, vitals } = watch();
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    try {
      const hidden = new Event('visibilitychange');
      document.dispatchEvent(hidden);
      observerOf('largest-contentful-paint').pending.push(
        candidate(hidden.timeStamp + 100, document.querySelector('h1')),
      );
      vitals.finalize();
      expect(reported.map(({ name }) => name)).toEqual(['TTFB']);
    } finally {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    }
  });

  it('report what there is in a browser without LCP or paint entries', () => {
    Object.defineProperty(window, 'PerformanceObserver', {
      value: class {
        observe() {
          throw new TypeError('unsupported entry type');
        }
      },
      configurable: true,
    });
    const { reported, vitals } = watch();
    expect(() => vitals.takeRecords()).not.toThrow();
    vitals.finalize();
    expect(reported).toEqual([{ name: 'TTFB', value: 95.4, part: 'host' }]);
  });
});

describe('before the takeover, the app waits for its first paint to be reported', () => {
  const settled = (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    return () => done;
  };
  /** Lets the promises settled so far run their callbacks. */
  const ticks = async () => {
    for (let tick = 0; tick < 5; tick++) await Promise.resolve();
  };

  it('until the browser reports the first contentful paint', async () => {
    const { vitals } = watch();
    const done = settled(vitals.firstPaintReported());
    observerOf('paint').pending.push(paint('first-paint', 120));
    observerOf('paint').deliver();
    await ticks();
    expect(done()).toBe(false);
    observerOf('paint').pending.push(paint('first-contentful-paint', 130));
    observerOf('paint').deliver();
    await ticks();
    expect(done()).toBe(true);
  });

  it('not at all once it was, even if the browser has not delivered it yet', async () => {
    const { vitals } = watch();
    observerOf('paint').pending.push(paint('first-contentful-paint', 130));
    const done = settled(vitals.firstPaintReported());
    await ticks();
    expect(done()).toBe(true);
  });

  it('not at all on a hidden page, which paints nothing', async () => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    try {
      const done = settled(watch().vitals.firstPaintReported());
      await ticks();
      expect(done()).toBe(true);
    } finally {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    }
  });

  it(`${FIRST_PAINT_WAIT_MS} ms at most`, async () => {
    jest.useFakeTimers();
    try {
      const done = settled(watch().vitals.firstPaintReported());
      jest.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
      await ticks();
      expect(done()).toBe(false);
      jest.advanceTimersByTime(1);
      await ticks();
      expect(done()).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
