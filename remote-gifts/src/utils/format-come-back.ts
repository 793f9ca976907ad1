/**
 * When plays come back, in the visitor's time zone: the API's day ends at midnight UTC, another hour
 * on most of the planet.
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
