import {
  ICON_CACHE_KEY,
  ICON_CACHE_MAX_ENTRIES,
  ICON_CACHE_TTL_HOURS,
  readCachedIcon,
  writeCachedIcon,
} from './icon-cache';

const HOUR = 60 * 60 * 1000;
const T0 = Date.parse('2026-11-22T12:00:00Z');
// Stored as the sanitiser writes it (sanitize-svg-body.ts).
const icon = (n: number) => ({ body: `<path d="M${n} 0h1v1z"></path>`, width: 24, height: 24 });

beforeEach(() => localStorage.clear());
afterEach(() => jest.restoreAllMocks());

describe('the icon cache', () => {
  it('keeps at most 50 entries for 168 hours, as the README promises operators', () => {
    expect(ICON_CACHE_MAX_ENTRIES).toBe(50);
    expect(ICON_CACHE_TTL_HOURS).toBe(168);
  });

  it('gives back what it stored, and nothing for an icon it never stored', () => {
    writeCachedIcon('mdi:rocket', icon(1), T0);
    expect(readCachedIcon('mdi:rocket', T0 + 1)).toEqual(icon(1));
    expect(readCachedIcon('mdi:other', T0 + 1)).toBeUndefined();
  });

  it('forgets an entry 168 hours after it was stored, however often it was read', () => {
    writeCachedIcon('mdi:rocket', icon(1), T0);
    expect(readCachedIcon('mdi:rocket', T0 + 100 * HOUR)).toEqual(icon(1));
    expect(readCachedIcon('mdi:rocket', T0 + 168 * HOUR - 1)).toEqual(icon(1));
    expect(readCachedIcon('mdi:rocket', T0 + 168 * HOUR)).toBeUndefined();
  });

  it('storing again restarts the 168 hours', () => {
    writeCachedIcon('mdi:rocket', icon(1), T0);
    writeCachedIcon('mdi:rocket', icon(2), T0 + 100 * HOUR);
    expect(readCachedIcon('mdi:rocket', T0 + 200 * HOUR)).toEqual(icon(2));
  });

  it('evicts the least recently used entry when a 51st is stored', () => {
    for (let n = 0; n < ICON_CACHE_MAX_ENTRIES; n++) writeCachedIcon(`mdi:icon-${n}`, icon(n), T0 + n);
    // Reading icon-0 makes icon-1 the least recently used.
    expect(readCachedIcon('mdi:icon-0', T0 + 100)).toEqual(icon(0));
    writeCachedIcon('mdi:icon-new', icon(99), T0 + 101);

    expect(readCachedIcon('mdi:icon-1', T0 + 102)).toBeUndefined();
    expect(readCachedIcon('mdi:icon-0', T0 + 102)).toEqual(icon(0));
    expect(readCachedIcon('mdi:icon-new', T0 + 102)).toEqual(icon(99));
    const stored = JSON.parse(localStorage.getItem(ICON_CACHE_KEY) ?? '{}') as { entries: object };
    expect(Object.keys(stored.entries)).toHaveLength(ICON_CACHE_MAX_ENTRIES);
  });

  it('drops expired entries when storing, so they take no room', () => {
    writeCachedIcon('mdi:old', icon(1), T0);
    writeCachedIcon('mdi:new', icon(2), T0 + 169 * HOUR);
    const stored = JSON.parse(localStorage.getItem(ICON_CACHE_KEY) ?? '{}') as { entries: object };
    expect(Object.keys(stored.entries)).toEqual(['mdi:new']);
  });

  it.each([
    ['not JSON', '{not json'],
    ['another shape', '[1,2,3]'],
    [
      'another version',
      JSON.stringify({ version: 99, entries: { 'mdi:rocket': { data: icon(1), storedAt: T0, usedAt: T0 } } }),
    ],
    [
      'a malformed entry',
      JSON.stringify({ version: 1, entries: { 'mdi:rocket': { data: { body: 7 }, storedAt: T0, usedAt: T0 } } }),
    ],
  ])('treats a stored value that is %s as empty, and stores over it', (_what, value) => {
    localStorage.setItem(ICON_CACHE_KEY, value);
    expect(readCachedIcon('mdi:rocket', T0)).toBeUndefined();
    writeCachedIcon('mdi:rocket', icon(3), T0);
    expect(readCachedIcon('mdi:rocket', T0 + 1)).toEqual(icon(3));
  });

  it('is a cache that always misses when storage throws (blocked or full)', () => {
    jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('Quota exceeded', 'QuotaExceededError');
    });
    expect(() => writeCachedIcon('mdi:rocket', icon(1), T0)).not.toThrow();
    expect(readCachedIcon('mdi:rocket', T0)).toBeUndefined();
  });
});
