import {
  bannerOpen,
  CONSENT_LIFETIME_DAYS,
  CONSENT_STORAGE_KEY,
  createConsentStore,
  parseStoredConsent,
  type ConsentDeps,
} from './consent-store';

const NOW = new Date('2030-02-01T12:00:00.000Z');

function deps(overrides: Partial<ConsentDeps> = {}): ConsentDeps {
  return { storage: () => window.localStorage, events: window, now: () => NOW, ...overrides };
}

function brokenStorage(): Storage {
  const fail = () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  return { getItem: fail, setItem: fail, removeItem: fail, clear: fail, key: fail, length: 0 };
}

beforeEach(() => window.localStorage.clear());
afterEach(() => jest.restoreAllMocks());

describe('the consent store', () => {
  it('starts with no choice, and stores one with when it was made', () => {
    const store = createConsentStore(deps());
    expect(store.getState().choice).toBeUndefined();

    store.choose('granted');

    expect(store.getState().choice).toBe('granted');
    expect(JSON.parse(window.localStorage.getItem(CONSENT_STORAGE_KEY) ?? 'null')).toEqual({
      choice: 'granted',
      at: NOW.toISOString(),
    });
  });

  it('reads the stored choice on the next visit', () => {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ choice: 'denied', at: NOW.toISOString() }));
    expect(createConsentStore(deps()).getState().choice).toBe('denied');
  });

  it.each([
    ['not json'],
    ['{"choice":"maybe"}'],
    ['null'],
    [''],
    ['{"choice":"granted"}'],
    ['{"choice":"granted","at":"yesterday"}'],
  ])('treats a stored %j as no choice', (raw) => {
    expect(parseStoredConsent(raw, NOW)).toBeUndefined();
  });

  it('asks again once a choice is a year old', () => {
    const day = 24 * 60 * 60 * 1000;
    const madeAgo = (days: number) =>
      JSON.stringify({ choice: 'granted', at: new Date(NOW.getTime() - days * day).toISOString() });
    expect(CONSENT_LIFETIME_DAYS).toBe(365);
    expect(parseStoredConsent(madeAgo(364), NOW)).toBe('granted');
    expect(parseStoredConsent(madeAgo(365), NOW)).toBeUndefined();

    window.localStorage.setItem(CONSENT_STORAGE_KEY, madeAgo(400));
    expect(createConsentStore(deps()).getState().choice).toBeUndefined();
  });

  it('works without storage: the choice holds for the page, and the failure is logged', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = createConsentStore(deps({ storage: brokenStorage }));
    expect(store.getState().choice).toBeUndefined();

    store.choose('denied');

    expect(store.getState().choice).toBe('denied');
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('tells its listeners about a choice, and stops when they unsubscribe', () => {
    const store = createConsentStore(deps());
    const listener = jest.fn();
    const unsubscribe = store.subscribe(listener);
    store.choose('granted');
    unsubscribe();
    store.choose('denied');

    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('follows a choice made in another tab', () => {
    const store = createConsentStore(deps());
    const listener = jest.fn();
    store.subscribe(listener);

    window.localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ choice: 'granted', at: NOW.toISOString() }));
    window.dispatchEvent(new StorageEvent('storage', { key: CONSENT_STORAGE_KEY }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'something-else' }));

    expect(store.getState().choice).toBe('granted');
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('the banner is open', () => {
  it('only once consent is relevant, while there is no choice or it was asked for again', () => {
    const store = createConsentStore(deps());
    expect(bannerOpen(store.getState())).toBe(false);
    store.markRelevant();
    expect(bannerOpen(store.getState())).toBe(true);
    store.choose('denied');
    expect(bannerOpen(store.getState())).toBe(false);
    store.reopen();
    expect(bannerOpen(store.getState())).toBe(true);
    store.choose('granted');
    expect(bannerOpen(store.getState())).toBe(false);
  });
});
