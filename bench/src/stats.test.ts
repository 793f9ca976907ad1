import { ratio } from './stats';

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
