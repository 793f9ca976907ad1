import { median, percentile } from './stats';

describe('median', () => {
  it('is the middle value of an odd count, in any order', () => {
    expect(median([5, 1, 3])).toBe(3);
  });

  it('is the mean of the middle two of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('leaves out values that are not numbers (a metric a run could not measure)', () => {
    expect(median([Number.NaN, 7, 9, Number.POSITIVE_INFINITY])).toBe(8);
  });

  it('is undefined without values', () => {
    expect(median([])).toBeUndefined();
    expect(median([Number.NaN])).toBeUndefined();
  });
});

describe('percentile', () => {
  const values = [9, 1, 8, 2, 7, 3, 6, 4, 5, 10];

  it('is the value at the nearest rank, in any order', () => {
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 99)).toBe(10);
    expect(percentile(values, 91)).toBe(10);
    expect(percentile(values, 90)).toBe(9);
  });

  it('is the smallest value at 0 and the largest at 100', () => {
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 100)).toBe(10);
  });

  it('is undefined without values', () => {
    expect(percentile([], 50)).toBeUndefined();
  });
});
