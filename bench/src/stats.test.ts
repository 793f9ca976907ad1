import { median, ratio } from './stats';

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

describe('ratio', () => {
  it('is federated over monolith', () => {
    expect(ratio(300, 200)).toBe(1.5);
  });

  it('is undefined when a side is missing or the monolith has none', () => {
    expect(ratio(undefined, 2)).toBeUndefined();
    expect(ratio(2, undefined)).toBeUndefined();
    expect(ratio(4, 0)).toBeUndefined();
  });
});
