import { connectMixpanel, MIXPANEL_SETTINGS, PAGE_VIEW_EVENT, type MixpanelLibrary } from './mixpanel-sink';

const TOKEN = 'test-token';

function fakeLibrary(overrides: Partial<Record<keyof MixpanelLibrary, jest.Mock>> = {}) {
  return {
    init: jest.fn(),
    track: jest.fn(),
    has_opted_out_tracking: jest.fn(() => false),
    opt_out_tracking: jest.fn(),
    clear_opt_in_out_tracking: jest.fn(),
    ...overrides,
  };
}

const loading = (library: ReturnType<typeof fakeLibrary>) => async () => library as unknown as MixpanelLibrary;

afterEach(() => jest.restoreAllMocks());

describe('the Mixpanel settings', () => {
  it('are the product’s Mixpanel settings', () => {
    expect(MIXPANEL_SETTINGS).toMatchObject({
      cookie_expiration: 365,
      batch_requests: true,
      batch_size: 50,
      batch_flush_interval_ms: 5000,
      batch_request_timeout_ms: 90000,
      track_links_timeout: 300,
      record_idle_timeout_ms: 30 * 60 * 1000,
      record_sessions_percent: 0,
    });
  });

  it('send no address, referrer or IP, and no automatic page views', () => {
    expect(MIXPANEL_SETTINGS.track_pageview).toBe(false);
    expect(MIXPANEL_SETTINGS.ip).toBe(false);
    expect(MIXPANEL_SETTINGS.save_referrer).toBe(false);
    expect(MIXPANEL_SETTINGS.cross_subdomain_cookie).toBe(false);
    expect(MIXPANEL_SETTINGS.property_blacklist).toEqual(
      expect.arrayContaining([
        '$current_url',
        'current_url_path',
        'current_url_search',
        '$referrer',
        '$initial_referrer',
        '$referring_domain',
        '$initial_referring_domain',
      ]),
    );
  });
});

describe('connectMixpanel, configured', () => {
  it('initialises the library with the token, the settings and the configured API host', async () => {
    const library = fakeLibrary();
    await connectMixpanel({ mixpanelToken: TOKEN, apiHost: 'https://api-eu.mixpanel.com/' }, loading(library));

    expect(library.init).toHaveBeenCalledTimes(1);
    expect(library.init).toHaveBeenCalledWith(TOKEN, { ...MIXPANEL_SETTINGS, api_host: 'https://api-eu.mixpanel.com' });
  });

  it('leaves the library’s own API host when none is configured', async () => {
    const library = fakeLibrary();
    await connectMixpanel({ mixpanelToken: TOKEN }, loading(library));

    expect(library.init.mock.calls[0][1]).not.toHaveProperty('api_host');
  });

  it('tracks events and page views, dated when they happened', async () => {
    const library = fakeLibrary();
    const connection = await connectMixpanel({ mixpanelToken: TOKEN }, loading(library));

    connection?.sink({
      type: 'event',
      event: { name: 'Gift Viewed', properties: { prizeId: 'cinema', status: 'available' } },
      at: 1_700_000_000_500,
    });
    connection?.sink({ type: 'page', view: { route: '/gifts/:giftId' }, at: 1_700_000_001_000 });

    expect(library.track.mock.calls).toEqual([
      ['Gift Viewed', { prizeId: 'cinema', status: 'available', time: 1_700_000_000.5 }],
      [PAGE_VIEW_EVENT, { route: '/gifts/:giftId', time: 1_700_000_001 }],
    ]);
  });

  it('opts out when consent is withdrawn, and back in (clearing the opt-out) when given again', async () => {
    const library = fakeLibrary();
    const connection = await connectMixpanel({ mixpanelToken: TOKEN }, loading(library));
    expect(library.clear_opt_in_out_tracking).not.toHaveBeenCalled();

    connection?.optOut();
    expect(library.opt_out_tracking).toHaveBeenCalledTimes(1);

    library.has_opted_out_tracking.mockReturnValue(true);
    connection?.optIn();
    expect(library.clear_opt_in_out_tracking).toHaveBeenCalledTimes(1);
  });

  it('clears an opt-out left from an earlier visit, since the visitor has accepted now', async () => {
    const library = fakeLibrary({ has_opted_out_tracking: jest.fn(() => true) });
    await connectMixpanel({ mixpanelToken: TOKEN }, loading(library));

    expect(library.clear_opt_in_out_tracking).toHaveBeenCalledTimes(1);
  });
});

describe('connectMixpanel, failing', () => {
  it('logs a chunk that does not load, and gives no connection', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failure = new Error('Loading chunk mixpanel failed.');

    await expect(connectMixpanel({ mixpanelToken: TOKEN }, () => Promise.reject(failure))).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith('[analytics] Mixpanel could not start; analytics stay off', failure);
  });

  it('logs an init that throws, and gives no connection', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failure = new Error('storage is blocked');
    const library = fakeLibrary({
      init: jest.fn(() => {
        throw failure;
      }),
    });

    await expect(connectMixpanel({ mixpanelToken: TOKEN }, loading(library))).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith('[analytics] Mixpanel could not start; analytics stay off', failure);
  });

  it('reports the library’s own errors (a failed request) as warnings only', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = new Error('Bad HTTP status: 0');

    MIXPANEL_SETTINGS.error_reporter('Bad HTTP status: 0', error);

    expect(warn).toHaveBeenCalledWith('[analytics] Mixpanel:', 'Bad HTTP status: 0', error);
  });
});
