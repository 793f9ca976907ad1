import { floorMs } from './floor';

const NETWORK = { latencyMs: 150, downloadBitsPerSecond: 1_600_000 };

describe('floorMs', () => {
  it('is one round trip plus the HTML at the emulated bandwidth', () => {
    // 20,000 bytes are 160,000 bits: 100 ms at 1.6 Mbit/s.
    expect(floorMs(20_000, NETWORK)).toBe(250);
  });

  it('counts every round trip it is told the first byte needs', () => {
    expect(floorMs(2_000, NETWORK, 3)).toBe(460);
  });

  it('is no number without the HTML (a load that did not measure it)', () => {
    expect(floorMs(0, NETWORK)).toBeNaN();
    expect(floorMs(Number.NaN, NETWORK)).toBeNaN();
  });
});
