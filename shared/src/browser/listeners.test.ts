import { createListeners } from './listeners';

describe('createListeners', () => {
  it('calls each subscriber on notify until it unsubscribes', () => {
    const listeners = createListeners();
    const first = jest.fn();
    const second = jest.fn();
    const unsubscribe = listeners.subscribe(first);
    listeners.subscribe(second);

    listeners.notify();
    unsubscribe();
    listeners.notify();

    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
  });

  it('still calls, this time, a listener that another one removes', () => {
    const listeners = createListeners();
    const later = jest.fn();
    let removeLater: () => void = () => undefined;
    listeners.subscribe(() => removeLater());
    removeLater = listeners.subscribe(later);

    listeners.notify();
    listeners.notify();

    expect(later).toHaveBeenCalledTimes(1);
  });
});
