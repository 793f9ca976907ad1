/** Deletes unusable redeem sessions (never a completed one) in batches that skip locked rows. */
import { type Queryable } from '../../db/database';
import { addMinutes } from '../../time';

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
