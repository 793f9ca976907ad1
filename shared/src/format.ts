/** Money, dates and times for people, in the interface's one locale. */
import type { PrizeValue } from './api/contract';

// 24-hour times: a deadline must not hinge on AM/PM.
const LOCALE = 'en';

export function formatPrizeValue(value: PrizeValue): string {
  if ('label' in value) return value.label;
  try {
    return new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency: value.currency,
      trailingZeroDisplay: 'stripIfInteger',
    }).format(value.amount);
  } catch {
    // An unknown currency code is a RangeError; the amount is still worth showing.
    return `${value.amount} ${value.currency}`;
  }
}

function formatInstant(iso: string, options: Intl.DateTimeFormatOptions): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(LOCALE, options).format(date);
}

export function formatDate(iso: string, timeZone?: string): string {
  return formatInstant(iso, { dateStyle: 'long', timeZone });
}

export function formatTime(iso: string, timeZone?: string): string {
  return formatInstant(iso, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
}
