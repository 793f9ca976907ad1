/** Fixed-window limits counted in the database, shared by every process; a refused hit is not counted. */
import { type Queryable } from '../db/database';
import { hashValue } from '../hash';
import { TooManyRequestsError } from '../http/errors';
import { secondsUntil, type TimeWindow } from '../time';

export interface LimitRule {
  /** e.g. ['play:ip', '203.0.113.9']. */
  scope: string;
  subject: string;
  limit: number;
  window: TimeWindow;
  message: string;
}

// Addresses and visitor ids are stored hashed: the counters need equality, not the values.
function bucketOf(rule: LimitRule): string {
  return `${rule.scope}:${hashValue(rule.subject)}`;
}

/** Counts one hit; returns how many remain in the window, or throws 429 with Retry-After. */
export async function consume(db: Queryable, rule: LimitRule, now: Date): Promise<number> {
  const rows = await db.query<{ hits: number }>(
    `INSERT INTO rate_counters (bucket, window_start, hits) VALUES ($1, $2::timestamptz, 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_counters.hits + 1
     WHERE rate_counters.hits < $3::int
     RETURNING hits`,
    [bucketOf(rule), rule.window.start, rule.limit],
  );
  const hits = rows[0]?.hits;
  if (hits === undefined || hits > rule.limit)
    throw new TooManyRequestsError(rule.message, secondsUntil(rule.window.end, now));
  return rule.limit - hits;
}

export async function pruneCounters(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM rate_counters WHERE window_start < $1::timestamptz', [before]);
}
