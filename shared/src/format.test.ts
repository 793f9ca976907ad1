import { formatDate, formatPrizeValue, formatTime } from './format';

describe('formatPrizeValue', () => {
  it.each([
    [{ amount: 12.5, currency: 'EUR' }, '€12.50'],
    [{ amount: 10, currency: 'USD' }, '$10'],
    [{ amount: 5, currency: 'EURO' }, '5 EURO'],
    [{ label: 'Free coffee' }, 'Free coffee'],
  ])('%j reads %s', (value, text) => {
    expect(formatPrizeValue(value)).toBe(text);
  });
});

describe('formatDate', () => {
  it('writes the day in English, long style', () => {
    expect(formatDate('2026-12-22T12:00:00.000Z')).toBe('December 22, 2026');
  });

  it('leaves a timestamp it cannot read as it is', () => {
    expect(formatDate('soon')).toBe('soon');
  });
});

describe('redeem formatting', () => {
  it.each([
    [{ amount: 25, currency: 'EUR' }, '€25'],
    [{ amount: 12.5, currency: 'USD' }, '$12.50'],
    [{ label: 'Free coffee' }, 'Free coffee'],
    [{ amount: 3, currency: 'NOT-A-CODE' }, '3 NOT-A-CODE'],
  ])('writes the prize value %j as %s', (value, expected) => {
    expect(formatPrizeValue(value)).toBe(expected);
  });

  it('writes dates in English and times on a 24-hour clock, in local time', () => {
    const instant = new Date(2030, 1, 14, 9, 5).toISOString();
    expect(formatDate(instant)).toBe('February 14, 2030');
    expect(formatTime(instant)).toBe('09:05');
    expect(formatTime(new Date(2030, 1, 14, 14, 32).toISOString())).toBe('14:32');
  });

  it('leaves an unreadable timestamp as it came rather than failing the page', () => {
    expect(formatDate('soon')).toBe('soon');
  });
});
