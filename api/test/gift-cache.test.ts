/**
 * The gift cache: a change announced by a redeem shows at once; an operator's direct edit of a
 * prize (which announces nothing) shows within the cache's minute, and not sooner than the
 * cache says.
 */
import { GiftCache, announceGiftChange } from '../src/features/gifts/gift-cache';
import { countingDb, harnessFor } from './support/harness';
import { winGift } from './support/test-app';
import { type Driver } from './support/test-db';

const drivers: Driver[] = ['pglite', 'postgres'];
const MINUTE_MS = 60_000;

describe.each(drivers)('gift cache on %s', (driver) => {
  const harness = harnessFor(driver);
  let cache: GiftCache | undefined;
  afterEach(async () => {
    await cache?.stop();
    cache = undefined;
  });

  async function started(): Promise<{ giftId: string; prizeId: string; clock: { ms: number }; gifts: GiftCache }> {
    const { app, db } = await harness.start();
    const giftId = await winGift(app);
    const clock = { ms: Date.UTC(2026, 0, 1) };
    const counter = { calls: 0 };
    const gifts = new GiftCache(countingDb(db, counter), () => clock.ms);
    cache = gifts;
    await gifts.start();
    const row = await gifts.find(giftId);
    if (!row) throw new Error('the won gift is not found');
    // On PostgreSQL the cache is bypassed until its LISTEN connection is up: wait until a read
    // is answered from memory (asks nothing of the database).
    const deadline = Date.now() + 5_000;
    for (;;) {
      const before = counter.calls;
      await gifts.find(giftId);
      if (counter.calls === before) break;
      if (Date.now() > deadline) throw new Error('the gift cache never started keeping rows');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { giftId, prizeId: row.prize_id, clock, gifts };
  }

  async function renamePrize(prizeId: string, name: string): Promise<void> {
    await harness.db.query('UPDATE prizes SET name = $1 WHERE id = $2', [name, prizeId]);
  }

  it('shows an edit made directly in the database once the minute is over, not before', async () => {
    const { giftId, prizeId, clock, gifts } = await started();
    await renamePrize(prizeId, 'Renamed by an operator');

    clock.ms += MINUTE_MS - 1;
    expect((await gifts.find(giftId))?.prize_name).not.toBe('Renamed by an operator');
    clock.ms += 1;
    expect((await gifts.find(giftId))?.prize_name).toBe('Renamed by an operator');
  });

  it('forgets a gift as soon as a committed change announces it', async () => {
    const { giftId, prizeId, gifts } = await started();
    await harness.db.transaction(async (tx) => {
      await tx.query('UPDATE prizes SET name = $1 WHERE id = $2', ['Changed with an announcement', prizeId]);
      await announceGiftChange(tx, giftId);
    });

    // The notification reaches PostgreSQL's listener over its own connection: give it a moment.
    const deadline = Date.now() + 5_000;
    let name = (await gifts.find(giftId))?.prize_name;
    while (name !== 'Changed with an announcement' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      name = (await gifts.find(giftId))?.prize_name;
    }
    expect(name).toBe('Changed with an announcement');
  });
});
