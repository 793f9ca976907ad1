/** Fills the prizes table from the catalogue at first start; later starts leave stock alone. */
import { type Database } from '../db/database';
import { type Catalogue } from './catalogue';

const SEED_LOCK_KEY = 0x73656564; // "seed"

/** Inserts the catalogue when the prizes table is empty; returns how many prizes it inserted. */
export async function seedPrizes(db: Database, loadCatalogue: () => Promise<Catalogue>, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [SEED_LOCK_KEY]);
    const [existing] = await tx.query<{ count: number }>('SELECT count(*)::int AS count FROM prizes');
    if (existing && existing.count > 0) return 0;
    const catalogue = await loadCatalogue();
    for (const prize of catalogue.prizes) {
      await tx.query(
        `INSERT INTO prizes (id, name, description, value, icon, stock, weight, created_at,
                             how_to_use, conditions, voucher_valid_days)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6::int, $7::int, $8::timestamptz, $9, $10, $11::int)`,
        [
          prize.id,
          prize.name,
          prize.description,
          JSON.stringify(prize.value),
          prize.icon,
          prize.stock,
          prize.weight,
          now,
          prize.howToUse,
          prize.conditions,
          prize.voucherValidDays,
        ],
      );
    }
    return catalogue.prizes.length;
  });
}
