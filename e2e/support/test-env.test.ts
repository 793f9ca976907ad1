/** Each worker's block of ports: one after the other, never on the bench's 5300-5399, each port to one use. */
import { describe, expect, it } from '@jest/globals';
import { MAX_API_COUNT, allPorts, stagingPorts } from '../staging/options';
import { FREE_PORT_RANGE } from './production';
import { BASE, BENCH_PORTS, FIXED_PORTS_BASE, PORTS_PER_WORKER, TEST_PORTS, blockStart, standInPort } from './test-env';

describe('blockStart', () => {
  it('puts the blocks one after the other from the base port', () => {
    expect([0, 1, 2].map((index) => blockStart(4300, index))).toEqual([4300, 4400, 4500]);
  });

  it('moves a block that would overlap the bench ports past them', () => {
    expect([0, 1, 2, 3].map((index) => blockStart(5200, index))).toEqual([5200, 5400, 5500, 5600]);
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

describe("a worker's block", () => {
  it("holds npm run staging's every port, with its most API processes, apart from the ports of every other use", () => {
    const staging = allPorts(stagingPorts(FIXED_PORTS_BASE, MAX_API_COUNT));
    const runTime = Array.from(
      { length: FREE_PORT_RANGE.last - FREE_PORT_RANGE.first + 1 },
      (_, index) => FREE_PORT_RANGE.first + index,
    );
    const standIns = Array.from({ length: 10 }, (_, index) => standInPort(index));
    const uses = [staging, runTime, standIns, Object.values(TEST_PORTS)];
    const every = uses.flat();
    expect(new Set(every).size).toBe(every.length);
    expect(every.every((port) => port >= BASE && port < BASE + PORTS_PER_WORKER)).toBe(true);
  });
});
