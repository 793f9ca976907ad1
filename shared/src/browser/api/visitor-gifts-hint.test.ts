import { hasVisitorGifts, rememberVisitorGifts, subscribeVisitorGifts } from './visitor-gifts-hint';

afterEach(() => localStorage.clear());

describe('the visitor-gifts hint', () => {
  it('remembers that the browser has gifts across tabs, and forgets it when the list is empty', () => {
    const listener = jest.fn();
    const unsubscribe = subscribeVisitorGifts(listener);
    expect(hasVisitorGifts()).toBe(false);

    rememberVisitorGifts(2);
    expect(hasVisitorGifts()).toBe(true);
    rememberVisitorGifts(3);
    expect(listener).toHaveBeenCalledTimes(1);

    rememberVisitorGifts(0);
    expect(hasVisitorGifts()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it("hears another tab's change", () => {
    const listener = jest.fn();
    const unsubscribe = subscribeVisitorGifts(listener);
    window.dispatchEvent(new StorageEvent('storage', { key: 'gift-box:has-gifts' }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'something-else' }));
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
