/**
 * Deleting redeem sessions nobody can use any more: open ones past their expiry and superseded
 * ones, once they have been over for SESSION_KEEP_HOURS (until then the page of such a session
 * still says what became of it). A completed session is never deleted: its browser can always
 * see its voucher again.
 *
 * Every API process runs this on its own schedule, on one PostgreSQL: each batch is one
 * statement that deletes at most `batchSize` rows, skipping rows another transaction holds
 * (another process's batch), so processes never wait on each other and no lock is held for long. A run stops after `maxBatches`; the next run carries on.
 */
import { type Queryable } from '../../db/database';
import { addMinutes } from '../../time';

/** How long an expired or superseded session stays readable before it is deleted. */
export const SESSION_KEEP_HOURS = 24;

export interface PruneOptions {
  batchSize?: number;
  maxBatches?: number;
}

async function deleteBatch(db: Queryable, before: Date, batchSize: number): Promise<number> {
  // The outer WHERE repeats the condition: a row changed since the inner SELECT read it is kept.
  const [row] = await db.query<{ deleted: number }>(
    `WITH gone AS (
       DELETE FROM redeem_sessions
        WHERE id IN (SELECT id FROM redeem_sessions
                      WHERE status <> 'completed' AND expires_at < $1::timestamptz
                      ORDER BY expires_at LIMIT $2::int
                      FOR UPDATE SKIP LOCKED)
          AND status <> 'completed' AND expires_at < $1::timestamptz
        RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`,
    [before, batchSize],
  );
  return row?.deleted ?? 0;
}

/** Deletes the sessions over for SESSION_KEEP_HOURS as of `now`; how many it deleted. */
export async function pruneRedeemSessions(
  db: Queryable,
  now: Date,
  { batchSize = 1_000, maxBatches = 100 }: PruneOptions = {},
): Promise<number> {
  const before = addMinutes(now, -SESSION_KEEP_HOURS * 60);
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const deleted = await deleteBatch(db, before, batchSize);
    total += deleted;
    if (deleted < batchSize) break;
  }
  return total;
}
