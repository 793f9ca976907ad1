/** Waits for a PostgreSQL still starting rather than crash-looping under a supervisor. */
import { type Database, DatabaseUnavailableError } from './database';

export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 5_000;

export interface WaitOptions {
  /** 0: one attempt. */
  withinMs: number;
  onRetry(attempt: number, reason: string, delayMs: number): void;
  /** For tests of the schedule: the clock and the wait. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Only unreachable is retried; a wrong password or missing database throws at once. */
export async function waitForDatabase(db: Database, options: WaitOptions): Promise<void> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepFor;
  const deadline = now() + options.withinMs;
  let delayMs = FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.query('SELECT 1');
      return;
    } catch (error) {
      const left = deadline - now();
      if (!(error instanceof DatabaseUnavailableError) || left <= 0) throw error;
      const wait = Math.min(delayMs, left);
      options.onRetry(attempt, error.reason.message, wait);
      await sleep(wait);
      delayMs = Math.min(delayMs * 2, MAX_DELAY_MS);
    }
  }
}
