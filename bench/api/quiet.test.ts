import { QUIET_OTHERS_CORES, quietRatios, ratioLine } from './quiet';

describe('quietRatios', () => {
  it('keeps the rounds other processes left quiet and names the others, counting from 1', () => {
    expect(quietRatios([0.31, 0.62, 0.33, 0.79], [0.05, 0.9, QUIET_OTHERS_CORES, 1.4])).toEqual({
      quoted: [0.31, 0.33],
      busy: [2, 4],
    });
  });
});

describe('ratioLine', () => {
  it('quotes the quiet rounds’ median with their spread, and says which rounds it left out', () => {
    expect(ratioLine('PostgreSQL', [0.31, 0.7, 0.34, 0.32], [0.02, 1.1, 0.04, 0.1], 0.5)).toBe(
      'median ratio PostgreSQL: 0.32× (0.31×–0.34×) over 3 quiet round(s) (rounds 2 left out: other processes used over 0.2 cores)   target ≥ 0.5× bare: MISSES target',
    );
  });

  it('quotes no ratio when every round was taken on a busy machine, however good it looks', () => {
    expect(ratioLine('PostgreSQL', [0.7, 0.79], [0.8, 1.2], 0.5)).toBe(
      'median ratio PostgreSQL: not quoted, the machine was busy in every round (rounds 1, 2 left out: other processes used over 0.2 cores): rerun on a quiet machine',
    );
  });
});
