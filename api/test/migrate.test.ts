/** Migrations and seeding: once, in order, also when two processes start together. */
import { type CataloguePrize } from '../src/catalogue/catalogue';
import { seedPrizes } from '../src/catalogue/seed';
import { type Database } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { openPostgres } from '../src/db/pg-database';
import { openPglite } from '../src/db/pglite-database';
import { createTestDatabase } from './support/postgres';
import { PRIZES } from './support/test-db';

const at = new Date('2030-01-01T00:00:00.000Z');
const catalogue = (prizes: CataloguePrize[]) => async () => ({ prizes });

it('applies migrations once on PGlite, and seeds only an empty prizes table', async () => {
  const db = await openPglite();
  try {
    expect(await migrate(db)).toEqual(['0001_initial', '0002_redeem_session_owner']);
    expect(await migrate(db)).toEqual([]);
    expect(await seedPrizes(db, catalogue(PRIZES), at)).toBe(2);
    expect(await seedPrizes(db, catalogue([{ ...PRIZES[0]!, id: 'another' }]), at)).toBe(0);
    const prizes = await db.query<{ id: string; value: unknown }>('SELECT id, value FROM prizes ORDER BY id');
    expect(prizes).toEqual([
      { id: 'coffee', value: { label: 'One free coffee' } },
      { id: 'gift-card', value: { amount: 10, currency: 'EUR' } },
    ]);
  } finally {
    await db.close();
  }
});

it('migrates and seeds once when two processes start together on PostgreSQL', async () => {
  const database = await createTestDatabase();
  const pools: Database[] = [openPostgres(database.url), openPostgres(database.url)];
  try {
    const applied = await Promise.all(pools.map((db) => migrate(db)));
    expect(applied.map((versions) => versions.length).sort()).toEqual([0, 2]);
    const seeded = await Promise.all(pools.map((db) => seedPrizes(db, catalogue(PRIZES), at)));
    expect(seeded.sort()).toEqual([0, 2]);
    const [count] = await pools[0]!.query<{ count: number }>('SELECT count(*)::int AS count FROM prizes');
    expect(count?.count).toBe(2);
  } finally {
    await Promise.all(pools.map((db) => db.close()));
    await database.drop();
  }
});
