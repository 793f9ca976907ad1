import { batchedDestination, HAND_OVER_MS, type LineSink } from './log-destination';

/** A sink that records what it is handed, as SonicBoom would write it. */
function recordingSink(): LineSink & { writes: string[]; flushed: number } {
  const sink = {
    writes: [] as string[],
    flushed: 0,
    write(text: string) {
      sink.writes.push(text);
      return true;
    },
    flushSync() {
      sink.flushed += 1;
    },
  };
  return sink;
}

describe('batchedDestination', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('hands the lines written meanwhile over together, in order, at most HAND_OVER_MS later', () => {
    const sink = recordingSink();
    const destination = batchedDestination(sink);
    destination.write('{"n":1}\n');
    destination.write('{"n":2}\n');
    expect(sink.writes).toEqual([]);
    jest.advanceTimersByTime(HAND_OVER_MS);
    expect(sink.writes).toEqual(['{"n":1}\n{"n":2}\n']);
    destination.write('{"n":3}\n');
    jest.advanceTimersByTime(HAND_OVER_MS);
    expect(sink.writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it('hands a large batch over at once, and everything pending on flushSync', () => {
    const sink = recordingSink();
    const destination = batchedDestination(sink);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 16; i += 1) destination.write(line);
    expect(sink.writes).toEqual([line.repeat(16)]);
    destination.write('{"last":true}\n');
    destination.flushSync();
    expect(sink.writes).toEqual([line.repeat(16), '{"last":true}\n']);
    expect(sink.flushed).toBe(1);
    jest.advanceTimersByTime(HAND_OVER_MS);
    expect(sink.writes).toHaveLength(2);
  });
});
