/**
 * When plays come back, in the visitor's own time zone: "at 01:00 tomorrow" (the API's day ends at
 * midnight UTC, which is another hour on most of the planet), "at 19:00 today", or a later date.
 * `timeZone` is the visitor's unless given.
 */
import { formatDate, formatTime } from 'shared/format';

const DAY_MS = 24 * 60 * 60 * 1000;

export function formatComeBack(at: Date, now: Date = new Date(), timeZone?: string): string {
  const iso = at.toISOString();
  const dayOf = (date: Date) => formatDate(date.toISOString(), timeZone);
  const time = formatTime(iso, timeZone);
  if (dayOf(at) === dayOf(now)) return `at ${time} today`;
  if (dayOf(at) === dayOf(new Date(now.getTime() + DAY_MS))) return `at ${time} tomorrow`;
  return `on ${formatDate(iso, timeZone)} at ${time}`;
}
