/** A clock the test moves by hand. */
export interface TestClock {
  now: () => Date;
  set(date: Date | string): void;
  advance(ms: number): void;
}

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

export function testClock(start: Date | string = '2030-03-15T10:00:00.000Z'): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (date) => {
      current = new Date(date).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
