import { clearGoogleCookies, CONSENT_DEFAULT, DEFAULT_GTAG_SCRIPT_URL, startTagManager } from './tag-manager';

const CONFIG = { measurementId: 'G-TEST1234' };

/** The dataLayer as commands: each entry must be the Arguments object gtag.js expects. */
function commands(): unknown[][] {
  return (window.dataLayer ?? []).map((entry) => {
    expect(Object.prototype.toString.call(entry)).toBe('[object Arguments]');
    return Array.from(entry as ArrayLike<unknown>);
  });
}

const names = () =>
  commands().map((args) =>
    args
      .slice(0, 2)
      .filter((arg) => typeof arg === 'string')
      .join(' '),
  );
const gtagScripts = () => [...document.querySelectorAll<HTMLScriptElement>('script[src]')];

afterEach(() => {
  delete window.dataLayer;
  delete window.gtag;
  for (const script of gtagScripts()) script.remove();
  jest.restoreAllMocks();
});

describe('startTagManager', () => {
  it('denies every storage by default, before the tag starts, then configures the measurement id', () => {
    startTagManager(CONFIG, { granted: false, route: '/game' });

    expect(names()).toEqual(['consent default', 'js', 'set', 'config G-TEST1234']);
    expect(commands()[0]).toEqual(['consent', 'default', CONSENT_DEFAULT]);
    expect(CONSENT_DEFAULT).toEqual({
      analytics_storage: 'denied',
      ad_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
    });
    expect(commands()[1]?.[1]).toBeInstanceOf(Date);
  });

  it('grants analytics storage straight after the default when the visitor already accepted', () => {
    startTagManager(CONFIG, { granted: true, route: '/' });

    expect(names().slice(0, 3)).toEqual(['consent default', 'consent update', 'js']);
    expect(commands()[1]).toEqual(['consent', 'update', { analytics_storage: 'granted' }]);
  });

  it('loads gtag.js asynchronously, with the id, from Google unless configured otherwise', () => {
    startTagManager(CONFIG, { granted: false, route: '/' });
    expect(gtagScripts().map((script) => [script.src, script.async])).toEqual([
      [`${DEFAULT_GTAG_SCRIPT_URL}?id=G-TEST1234`, true],
    ]);
  });

  it('loads the configured script URL', () => {
    startTagManager({ ...CONFIG, scriptUrl: 'http://127.0.0.1:4411/gtag/js' }, { granted: false, route: '/' });
    expect(gtagScripts()[0]?.src).toBe('http://127.0.0.1:4411/gtag/js?id=G-TEST1234');
  });

  it('names the page by its route pattern, never the address with its id', () => {
    window.history.replaceState(null, '', '/gifts/Zx9_-aBcDeFgHiJkLmNoPqRs');
    const tags = startTagManager(CONFIG, { granted: false, route: '/gifts/:giftId' });
    tags.pageView('/redeem/:redeemId');

    const pageFields = commands().filter(
      ([command]) => command === 'set' || command === 'config' || command === 'event',
    );
    expect(pageFields.map((args) => args.at(-1))).toEqual([
      { page_location: 'http://localhost/gifts/:giftId' },
      { page_location: 'http://localhost/gifts/:giftId', send_page_view: false },
      { page_location: 'http://localhost/redeem/:redeemId' },
      { page_location: 'http://localhost/redeem/:redeemId' },
    ]);
    expect(commands().at(-1)?.slice(0, 2)).toEqual(['event', 'page_view']);
    expect(JSON.stringify(commands())).not.toContain('Zx9_');
    window.history.replaceState(null, '', '/');
  });

  it('cuts the referrer to its origin: the previous address may hold a gift id', () => {
    const referrer = jest
      .spyOn(document, 'referrer', 'get')
      .mockReturnValue('http://localhost/gifts/Zx9_-aBcDeFgHiJkLmNoPqRs?from=share');
    startTagManager(CONFIG, { granted: false, route: '/redeem/:redeemId' });
    const config = commands().find(([command]) => command === 'config');
    expect(config?.at(-1)).toMatchObject({ page_referrer: 'http://localhost/' });
    expect(JSON.stringify(commands())).not.toContain('Zx9_');
    referrer.mockRestore();
  });

  it('updates consent when the visitor accepts, and again when they withdraw', () => {
    const tags = startTagManager(CONFIG, { granted: false, route: '/' });
    tags.grant();
    tags.deny();

    expect(commands().slice(-2)).toEqual([
      ['consent', 'update', { analytics_storage: 'granted' }],
      ['consent', 'update', { analytics_storage: 'denied' }],
    ]);
  });

  it('keeps what was already queued in the dataLayer', () => {
    window.dataLayer = [{ event: 'earlier' }];
    startTagManager(CONFIG, { granted: false, route: '/' });
    expect(window.dataLayer[0]).toEqual({ event: 'earlier' });
  });

  it('only logs a script that fails to load', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    startTagManager(CONFIG, { granted: false, route: '/' });

    gtagScripts()[0]?.dispatchEvent(new Event('error'));

    expect(warn).toHaveBeenCalledWith(
      `[tag manager] ${DEFAULT_GTAG_SCRIPT_URL}?id=G-TEST1234 could not be loaded; tags stay off`,
    );
  });
});

describe('clearGoogleCookies', () => {
  it("removes the tag's cookies and leaves the others", () => {
    document.cookie = '_ga=GA1.1.123.456; path=/';
    document.cookie = '_ga_TEST1234=GS1.1.789; path=/';
    document.cookie = 'p-visitor=keep; path=/';
    clearGoogleCookies();
    expect(document.cookie).toBe('p-visitor=keep');
    document.cookie = 'p-visitor=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });
});
