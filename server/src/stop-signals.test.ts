import { onStopSignals } from './stop-signals';

describe('onStopSignals', () => {
  const calls: string[] = [];
  let remove: () => void = () => undefined;
  beforeEach(() => {
    calls.length = 0;
    remove = onStopSignals({
      delayMs: 5_000,
      stop: (signal, delayMs) => calls.push(`stop ${signal} ${delayMs}`),
      hurry: (signal) => calls.push(`hurry ${signal}`),
    });
  });
  afterEach(() => remove());

  it('waits the delay after SIGTERM, ignores the SIGTERM npm forwards, and hurries on a SIGINT', () => {
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    expect(calls).toEqual(['stop SIGTERM 5000', 'hurry SIGINT']);
  });

  it('does not wait after SIGINT', () => {
    process.emit('SIGINT', 'SIGINT');
    expect(calls).toEqual(['stop SIGINT 0']);
  });

  it('removes its handlers', () => {
    remove();
    const before = process.listenerCount('SIGTERM');
    remove = onStopSignals({ delayMs: 0, stop: () => undefined, hurry: () => undefined });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
  });
});
