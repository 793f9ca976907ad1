export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const addMinutes = (date: Date, minutes: number): Date => new Date(date.getTime() + minutes * MINUTE);
export const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY);

export interface TimeWindow {
  start: Date;
  end: Date;
}

export function dayWindow(now: Date): TimeWindow {
  const start = new Date(Math.floor(now.getTime() / DAY) * DAY);
  return { start, end: new Date(start.getTime() + DAY) };
}

export function minuteWindow(now: Date): TimeWindow {
  const start = new Date(Math.floor(now.getTime() / MINUTE) * MINUTE);
  return { start, end: new Date(start.getTime() + MINUTE) };
}

/** At least 1: a Retry-After value. */
export function secondsUntil(end: Date, now: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}
