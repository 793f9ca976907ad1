/**
 * The API's first connection to PostgreSQL, tried again for a bounded time: started by a
 * supervisor beside a database that is still starting (a machine's boot, a failover), the API
 * waits for it instead of exiting at once and being restarted in a loop.
 */
import { type Database, DatabaseUnavailableError } from './database';

/** The first wait between attempts; each later one doubles, up to MAX_DELAY_MS. */
export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 5_000;

export interface WaitOptions {
  /** How long to keep trying (DATABASE_CONNECT_RETRY_MS); 0: one attempt. */
  withinMs: number;
  /** Told of each failed attempt that another follows, with the wait before it. */
  onRetry(attempt: number, reason: string, delayMs: number): void;
  /** For tests of the schedule: the clock and the wait. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once `db` answers a query. A database that cannot be reached (refused, gone, still
 * starting) is asked again until `withinMs` has passed; then, or at once for any other error (a
 * wrong password, a missing database), the error is thrown.
 */
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
