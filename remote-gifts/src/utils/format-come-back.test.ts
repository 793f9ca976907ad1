import { formatComeBack } from './format-come-back';

const at = (iso: string) => new Date(iso);
// The API's day ends at midnight UTC.
const MIDNIGHT_UTC = at('2030-03-16T00:00:00Z');

describe('formatComeBack', () => {
  it('says midnight UTC in a zone ahead of UTC as the next morning, local time', () => {
    expect(formatComeBack(MIDNIGHT_UTC, at('2030-03-15T21:30:00Z'), 'Europe/Paris')).toBe('at 01:00 tomorrow');
  });

  it('says the same midnight in a zone behind UTC as this evening', () => {
    expect(formatComeBack(MIDNIGHT_UTC, at('2030-03-15T14:00:00Z'), 'America/New_York')).toBe('at 20:00 today');
  });

  it('gives the date when it is further away than tomorrow', () => {
    expect(formatComeBack(at('2030-03-18T00:00:00Z'), at('2030-03-15T14:00:00Z'), 'UTC')).toBe(
      'on March 18, 2030 at 00:00',
    );
  });
});
