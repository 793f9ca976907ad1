/**
 * Redeem sessions nobody can use any more are deleted (prune-sessions.ts): open ones past their
 * expiry and superseded ones, a day after they ended; completed ones never. On PostgreSQL,
 * several processes pruning at once, as every API process does, delete each row once.
 */
import { newId } from '../src/codes';
import { type Database } from '../src/db/database';
import { openPostgres } from '../src/db/pg-database';
import { pruneRedeemSessions, SESSION_KEEP_HOURS } from '../src/features/redeems/prune-sessions';
import { addMinutes } from '../src/time';
import { harnessFor } from './support/harness';
import { complete, get, newVisitor, openRedeem, winGift } from './support/test-app';
import { DAY } from './support/test-clock';
import { HIGH_LIMITS } from './support/test-config';
import { type Driver } from './support/test-db';

const drivers: Driver[] = ['pglite', 'postgres'];

type Status = 'open' | 'superseded';

/** Sessions of `giftId` straight in the database, each ending at `expiresAt`. */
async function insertSessions(db: Database, giftId: string, status: Status, expiresAt: Date, count: number) {
  const ids = Array.from({ length: count }, () => newId());
  for (const id of ids)
    await db.query(
      `INSERT INTO redeem_sessions (id, gift_id, status, created_at, expires_at)
       VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz)`,
      [id, giftId, status, addMinutes(expiresAt, -30), expiresAt],
    );
  return ids;
}

async function statusesOf(db: Database, ids: string[]): Promise<Record<string, string>> {
  const rows = await db.query<{ id: string; status: string }>(
    'SELECT id, status FROM redeem_sessions WHERE id = ANY($1::text[])',
    [ids],
  );
  return Object.fromEntries(rows.map((row) => [row.id, row.status]));
}

describe.each(drivers)('pruning redeem sessions on %s', (driver) => {
  const harness = harnessFor(driver);

  it('deletes open and superseded sessions a day after they ended, in batches; keeps the rest and every completed one', async () => {
    const { app, clock, db } = await harness.start({ limits: HIGH_LIMITS });
    const giftId = await winGift(app);
    const cookie = newVisitor();
    const completed = await openRedeem(app, giftId, { cookie });
    const { voucherCode } = (await complete(app, completed, 'jane@example.com', { cookie })).json();
    const other = await winGift(app);

    // Ten days later: the completed session is long over, and stays.
    clock.advance(10 * DAY);
    const current = await openRedeem(app, other);
    const now = clock.now();
    const dayAgo = addMinutes(now, -SESSION_KEEP_HOURS * 60);
    const old = [
      ...(await insertSessions(db, other, 'open', addMinutes(dayAgo, -1), 3)),
      ...(await insertSessions(db, other, 'superseded', addMinutes(dayAgo, -5 * 60), 2)),
    ];
    const recent = [
      ...(await insertSessions(db, other, 'open', addMinutes(dayAgo, 1), 1)),
      ...(await insertSessions(db, other, 'superseded', addMinutes(now, -60), 1)),
    ];

    expect(await pruneRedeemSessions(db, now, { batchSize: 2 })).toBe(old.length);
    expect(await statusesOf(db, old)).toEqual({});
    expect(Object.keys(await statusesOf(db, [...recent, completed, current]))).toHaveLength(recent.length + 2);
    expect(await pruneRedeemSessions(db, now, { batchSize: 2 })).toBe(0);

    // Its browser still sees its voucher; a deleted session is unknown.
    expect((await get(app, `/api/redeems/${completed}`, { cookie })).json()).toMatchObject({
      status: 'completed',
      voucherCode,
    });
    expect((await get(app, `/api/redeems/${old[0]}`)).statusCode).toBe(404);
  });

  it('stops after maxBatches; the next run carries on', async () => {
    const { app, clock, db } = await harness.start({ limits: HIGH_LIMITS });
    const giftId = await winGift(app);
    clock.advance(2 * DAY);
    await insertSessions(db, giftId, 'open', addMinutes(clock.now(), -SESSION_KEEP_HOURS * 60 - 1), 7);
    expect(await pruneRedeemSessions(db, clock.now(), { batchSize: 2, maxBatches: 2 })).toBe(4);
    expect(await pruneRedeemSessions(db, clock.now(), { batchSize: 2, maxBatches: 2 })).toBe(3);
  });

  if (driver === 'postgres')
    it('deletes each row once when three processes prune at once, while visitors complete sessions', async () => {
      const { app, clock, db } = await harness.start({ limits: HIGH_LIMITS });
      const giftId = await winGift(app);
      const now = clock.now();
      const old = await insertSessions(db, giftId, 'open', addMinutes(now, -SESSION_KEEP_HOURS * 60 - 1), 200);
      const live = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const cookie = newVisitor();
          return { cookie, redeemId: await openRedeem(app, await winGift(app), { cookie }) };
        }),
      );
      // Each process has a pool of its own on the same database.
      const processes = Array.from({ length: 3 }, () => openPostgres(harness.url!, { poolSize: 2 }));
      try {
        const [pruned, completions] = await Promise.all([
          Promise.all(processes.map((other) => pruneRedeemSessions(other, now, { batchSize: 10 }))),
          Promise.all(live.map(({ cookie, redeemId }) => complete(app, redeemId, 'jane@example.com', { cookie }))),
        ]);
        expect(pruned.reduce((sum, count) => sum + count, 0)).toBe(old.length);
        expect(completions.map((response) => response.statusCode)).toEqual(live.map(() => 200));
      } finally {
        await Promise.all(processes.map((other) => other.close()));
      }
      expect(await statusesOf(db, old)).toEqual({});
      const [left] = await db.query<{ completed: number; total: number }>(
        "SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*)::int AS total FROM redeem_sessions",
      );
      expect(left).toEqual({ completed: 5, total: 5 });
    });
});
