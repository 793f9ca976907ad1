import { formatWait } from './format-wait';

describe('formatWait', () => {
  it.each([
    [20, 'a minute'],
    [60, 'about a minute'],
    [25 * 60, 'about 25 minutes'],
    [3_600, 'about an hour'],
    [5 * 3_600 + 600, 'about 5 hours'],
    [36 * 3_600, 'about 2 days'],
  ])('%i seconds is %s', (seconds, text) => {
    expect(formatWait(seconds)).toBe(text);
  });
});
