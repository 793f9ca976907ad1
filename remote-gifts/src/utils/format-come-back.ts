/**
 * When plays come back, in the visitor's own time zone: "at 01:00 tomorrow" (the API's day ends at
 * midnight UTC, which is another hour on most of the planet), "at 19:00 today", or a later date.
 * `timeZone` is the visitor's unless given.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

export function formatComeBack(at: Date, now: Date = new Date(), timeZone?: string): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const time = new Intl.DateTimeFormat('en', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const date = new Intl.DateTimeFormat('en', { timeZone, dateStyle: 'long' });
  if (day.format(at) === day.format(now)) return `at ${time.format(at)} today`;
  if (day.format(at) === day.format(new Date(now.getTime() + DAY_MS))) return `at ${time.format(at)} tomorrow`;
  return `on ${date.format(at)} at ${time.format(at)}`;
}
