/**
 * Gift rows in memory for the busiest read. Redeeming is the only change and notifies every
 * process; during a gap in notifications the cache is bypassed, a read racing a change is not
 * kept, and TTL_MS bounds how long an operator's direct edit takes to show.
 */
import { LRUCache } from 'lru-cache';
import { type Database, type Queryable } from '../../db/database';
import { findGift, type GiftRow } from './gift-view';

export const GIFT_CHANGED = 'gift_changed';
const MAX_ENTRIES = 5_000;
const TTL_MS = 60_000;

export class GiftCache {
  private readonly entries = new LRUCache<string, { row: GiftRow; storedAt: number }>({ max: MAX_ENTRIES });
  private epoch = 0;
  private listening = false;
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.db.listen(GIFT_CHANGED, {
      message: (giftId) => this.forget(giftId),
      gap: () => this.pause(),
      resumed: () => {
        this.forgetAll();
        this.listening = true;
      },
    });
    // PGlite hears every change from the start (one process, one session).
    if (this.db.driver === 'pglite') this.listening = true;
  }

  async stop(): Promise<void> {
    this.pause();
    await this.unsubscribe?.();
  }

  async find(giftId: string): Promise<GiftRow | undefined> {
    const cached = this.entries.get(giftId);
    if (cached && this.listening && this.clock() - cached.storedAt < TTL_MS) return cached.row;
    const epoch = this.epoch;
    const row = await findGift(this.db, giftId);
    if (row && this.listening && epoch === this.epoch) this.store(giftId, row);
    return row;
  }

  forget(giftId: string): void {
    this.epoch += 1;
    this.entries.delete(giftId);
  }

  private forgetAll(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  private pause(): void {
    this.listening = false;
    this.forgetAll();
  }

  private store(giftId: string, row: GiftRow): void {
    this.entries.set(giftId, { row, storedAt: this.clock() });
  }
}

/** Inside the transaction that changes the gift: heard by every process once it commits. */
export async function announceGiftChange(tx: Queryable, giftId: string): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [GIFT_CHANGED, giftId]);
}
