/** How every page writes money, dates and times for people: English (the interface's one locale). */
import type { PrizeValue } from './api/contract';

// One formatter for every remote, so a prize reads the same on the gift and redeem pages.
// Times are 24-hour ("14:32"): a deadline must not hinge on AM/PM.
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

/** "February 14, 2030", in the visitor's time zone unless another is given. */
export function formatDate(iso: string, timeZone?: string): string {
  return formatInstant(iso, { dateStyle: 'long', timeZone });
}

/** "14:32", in the visitor's time zone unless another is given. */
export function formatTime(iso: string, timeZone?: string): string {
  return formatInstant(iso, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
}
