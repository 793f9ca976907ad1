/** Each worker's block of ports: one after the other, never on the bench's 5300-5399. */
import { describe, expect, it } from '@jest/globals';
import { BENCH_PORTS, PORTS_PER_WORKER, blockStart } from './test-env';

describe('blockStart', () => {
  it('puts the blocks one after the other from the base port', () => {
    expect([0, 1, 2].map((index) => blockStart(4300, index))).toEqual([4300, 4350, 4400]);
  });

  it('moves a block that would overlap the bench ports past them', () => {
    expect([0, 1, 2, 3].map((index) => blockStart(5200, index))).toEqual([5200, 5250, 5400, 5450]);
    expect(blockStart(5280, 0)).toBe(5400);
  });

  it('gives no worker of up to 16 a port of the bench, from any base port below it', () => {
    for (let base = 4000; base <= BENCH_PORTS.last; base += 10) {
      for (let index = 0; index < 16; index += 1) {
        const first = blockStart(base, index);
        const last = first + PORTS_PER_WORKER - 1;
        expect(last < BENCH_PORTS.first || first > BENCH_PORTS.last).toBe(true);
      }
    }
  });
});
