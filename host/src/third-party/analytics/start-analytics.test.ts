import { analytics, type AnalyticsHit } from 'shared/browser/analytics';
import type { RuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { createConsentStore, type ConsentStore } from './consent-store';
import type { MixpanelLibrary } from './mixpanel-sink';
import { RouteTable } from '../../route-table/route-table';
import { createPageViews } from './page-views';
import { startAnalytics } from './start-analytics';

const BASE: RuntimeConfig = {
  // Each remote's server on this machine, at its port.
  remotes: everyRemote(),
  apiBaseUrl: 'http://localhost:3004',
  buildCheckIntervalMs: 3_600_000,
  remoteTimeoutMs: 10_000,
};
const MIXPANEL = { analytics: { mixpanelToken: 'test-token', apiHost: 'http://127.0.0.1:4410' } };
const TAGS = { tagManager: { measurementId: 'G-TEST1234', scriptUrl: 'http://127.0.0.1:4411/gtag/js' } };

function setup(config: RuntimeConfig, { loadFails = false } = {}) {
  const library = {
    init: jest.fn(),
    track: jest.fn(),
    has_opted_out_tracking: jest.fn(() => false),
    opt_out_tracking: jest.fn(),
    clear_opt_in_out_tracking: jest.fn(),
  };
  const loadMixpanel = jest.fn(async () => {
    if (loadFails) throw new Error('Loading chunk mixpanel failed.');
    return library as unknown as MixpanelLibrary;
  });
  const consent: ConsentStore = createConsentStore();
  const pageViews = createPageViews(new RouteTable([]));
  return {
    library,
    loadMixpanel,
    consent,
    pageViews,
    start: () => startAnalytics(config, { consent, pageViews, loadMixpanel }),
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const tracked = (library: { track: jest.Mock }) =>
  library.track.mock.calls.map(([name, properties]) => [name, properties.route ?? properties.prizeId]);
const gtagScripts = () => [...document.querySelectorAll('script[src*="gtag"]')];
const gtagCommands = () => (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>).slice(0, 2));

beforeEach(() => {
  window.localStorage.clear();
  analytics.disable();
  // A fresh facade for each test: buffering, as on a fresh page.
  analytics.connect(() => undefined)();
});

afterEach(() => {
  delete window.dataLayer;
  delete window.gtag;
  for (const script of gtagScripts()) script.remove();
  jest.restoreAllMocks();
});

describe('startAnalytics, unconfigured', () => {
  it('asks nothing, loads nothing and switches the facade off', async () => {
    const { loadMixpanel, consent, start } = setup(BASE);
    const hits: AnalyticsHit[] = [];
    analytics.pageView({ route: '/' });

    start();
    analytics.connect((hit) => hits.push(hit));
    await flush();

    expect(consent.getState().relevant).toBe(false);
    expect(loadMixpanel).not.toHaveBeenCalled();
    expect(window.dataLayer).toBeUndefined();
    expect(gtagScripts()).toHaveLength(0);
    expect(hits).toEqual([]);
  });
});

describe('startAnalytics with Mixpanel', () => {
  it('asks for consent and loads nothing until the visitor answers', async () => {
    const { loadMixpanel, consent, start } = setup({ ...BASE, ...MIXPANEL });
    start();
    await flush();

    expect(consent.getState().relevant).toBe(true);
    expect(loadMixpanel).not.toHaveBeenCalled();
  });

  it('on Accept loads Mixpanel and sends what happened while it waited, then what follows', async () => {
    const { library, loadMixpanel, consent, start } = setup({ ...BASE, ...MIXPANEL });
    analytics.pageView({ route: '/game' });
    start();
    analytics.track({ name: 'Game Played', properties: { outcome: 'win', prizeId: 'cinema' } });

    consent.choose('granted');
    await flush();
    analytics.pageView({ route: '/gifts/:giftId' });

    expect(loadMixpanel).toHaveBeenCalledTimes(1);
    expect(library.init).toHaveBeenCalledWith(
      'test-token',
      expect.objectContaining({ api_host: 'http://127.0.0.1:4410', batch_size: 50 }),
    );
    expect(tracked(library)).toEqual([
      ['Page Viewed', '/game'],
      ['Game Played', 'cinema'],
      ['Page Viewed', '/gifts/:giftId'],
    ]);
  });

  it('starts at once for a visitor who accepted on an earlier visit', async () => {
    const { library, consent, start } = setup({ ...BASE, ...MIXPANEL });
    consent.choose('granted');
    analytics.pageView({ route: '/' });

    start();
    await flush();

    expect(tracked(library)).toEqual([['Page Viewed', '/']]);
  });

  it('on Decline never loads Mixpanel and drops what waited', async () => {
    const { loadMixpanel, consent, start } = setup({ ...BASE, ...MIXPANEL });
    analytics.pageView({ route: '/' });
    start();

    consent.choose('denied');
    await flush();
    const hits: AnalyticsHit[] = [];
    analytics.pageView({ route: '/about' });

    expect(loadMixpanel).not.toHaveBeenCalled();
    analytics.connect((hit) => hits.push(hit));
    expect(hits).toEqual([]);
  });

  it('stops and opts out when consent is withdrawn, and resumes when it is given again', async () => {
    const { library, consent, start } = setup({ ...BASE, ...MIXPANEL });
    consent.choose('granted');
    start();
    await flush();

    consent.choose('denied');
    await flush();
    analytics.pageView({ route: '/about' });
    expect(library.opt_out_tracking).toHaveBeenCalledTimes(1);
    expect(library.track).not.toHaveBeenCalled();

    library.has_opted_out_tracking.mockReturnValue(true);
    consent.choose('granted');
    await flush();
    analytics.pageView({ route: '/terms' });
    expect(library.clear_opt_in_out_tracking).toHaveBeenCalled();
    expect(tracked(library)).toEqual([['Page Viewed', '/terms']]);
  });

  it('declined while the library was still loading: it neither connects nor tracks, and opts out', async () => {
    const { library, consent, pageViews } = setup({ ...BASE, ...MIXPANEL });
    let finishLoading: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (finishLoading = resolve));
    const loadMixpanel = jest.fn(async () => {
      await held;
      return library as unknown as MixpanelLibrary;
    });
    startAnalytics({ ...BASE, ...MIXPANEL }, { consent, pageViews, loadMixpanel });
    analytics.pageView({ route: '/' });
    consent.choose('granted');
    consent.choose('denied');
    finishLoading();
    await flush();
    await flush();

    analytics.pageView({ route: '/about' });
    expect(library.track).not.toHaveBeenCalled();
    expect(library.opt_out_tracking).toHaveBeenCalledTimes(1);
  });

  it('treats a choice cleared in another tab as withdrawn, until the visitor answers again', async () => {
    const { library, consent, start } = setup({ ...BASE, ...MIXPANEL });
    consent.choose('granted');
    start();
    await flush();

    window.localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    await flush();
    analytics.pageView({ route: '/about' });

    expect(consent.getState().choice).toBeUndefined();
    expect(library.opt_out_tracking).toHaveBeenCalledTimes(1);
    expect(library.track).not.toHaveBeenCalled();
  });

  it('only logs a Mixpanel chunk that fails to load, and switches the facade off', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { consent, start } = setup({ ...BASE, ...MIXPANEL }, { loadFails: true });
    start();
    expect(() => consent.choose('granted')).not.toThrow();
    await flush();

    expect(warn).toHaveBeenCalledWith('[analytics] Mixpanel could not start; analytics stay off', expect.any(Error));
    const hits: AnalyticsHit[] = [];
    analytics.pageView({ route: '/' });
    analytics.connect((hit) => hits.push(hit));
    expect(hits).toEqual([]);
  });
});

describe('startAnalytics with the tag manager', () => {
  it('starts the tag with consent denied, asks for consent, and grants analytics storage on Accept', () => {
    const { loadMixpanel, consent, start } = setup({ ...BASE, ...TAGS });
    start();

    expect(gtagScripts().map((script) => script.getAttribute('src'))).toEqual([
      'http://127.0.0.1:4411/gtag/js?id=G-TEST1234',
    ]);
    expect(gtagCommands()[0]).toEqual(['consent', 'default']);
    expect(consent.getState().relevant).toBe(true);

    consent.choose('granted');

    expect(Array.from(window.dataLayer?.at(-1) as ArrayLike<unknown>)).toEqual([
      'consent',
      'update',
      { analytics_storage: 'granted' },
    ]);
    // The tag alone needs no Mixpanel.
    expect(loadMixpanel).not.toHaveBeenCalled();
  });

  it('starts no tag for a visitor who declined earlier, and starts it granted once they accept', () => {
    const { consent, start } = setup({ ...BASE, ...TAGS });
    consent.choose('denied');
    start();
    expect(gtagScripts()).toEqual([]);
    expect(window.dataLayer).toBeUndefined();

    consent.choose('granted');
    expect(gtagScripts()).toHaveLength(1);
    expect(gtagCommands().slice(0, 2)).toEqual([
      ['consent', 'default'],
      ['consent', 'update'],
    ]);
  });

  it("denies analytics storage again and removes the tag's cookies when consent is withdrawn", () => {
    const { consent, start } = setup({ ...BASE, ...TAGS });
    consent.choose('granted');
    start();
    document.cookie = '_ga=GA1.1.123.456; path=/';

    consent.choose('denied');
    expect(Array.from(window.dataLayer?.at(-1) as ArrayLike<unknown>)).toEqual([
      'consent',
      'update',
      { analytics_storage: 'denied' },
    ]);
    expect(document.cookie).not.toContain('_ga=');
  });
});
