/**
 * Migrations and seeding: once, in order, also when two processes start together; an applied
 * migration whose file has changed since stops the start.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CataloguePrize } from '../src/catalogue/catalogue';
import { seedPrizes } from '../src/catalogue/seed';
import { type Database } from '../src/db/database';
import { migrate, MigrationChangedError, MIGRATIONS_DIR } from '../src/db/migrate';
import { openPostgres } from '../src/db/pg-database';
import { runToExit } from './support/api-process';
import { shippedMigrations } from './support/migrations';
import { createTestDatabase } from 'testbed/postgres';
import { newPglite, PRIZES } from './support/test-db';

const at = new Date('2030-01-01T00:00:00.000Z');
const catalogue = (prizes: CataloguePrize[]) => async () => ({ prizes });
const shipped = shippedMigrations;

it('applies migrations once on PGlite, and seeds only an empty prizes table', async () => {
  const db = await newPglite();
  try {
    expect(await migrate(db)).toEqual(shipped());
    expect(shipped().slice(0, 2)).toEqual(['0001_initial', '0002_redeem_session_owner']);
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
    expect(applied.map((versions) => versions.length).sort()).toEqual([0, shipped().length]);
    const seeded = await Promise.all(pools.map((db) => seedPrizes(db, catalogue(PRIZES), at)));
    expect(seeded.sort()).toEqual([0, 2]);
    const [count] = await pools[0]!.query<{ count: number }>('SELECT count(*)::int AS count FROM prizes');
    expect(count?.count).toBe(2);
  } finally {
    await Promise.all(pools.map((db) => db.close()));
    await database.drop();
  }
});

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'api-migrations-'));
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const recorded = (db: Database) =>
  db.query<{ version: string; checksum: string | null }>(
    'SELECT version, checksum FROM schema_migrations ORDER BY version',
  );
const checksumsOf = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map((file) => ({ version: file.replace(/\.sql$/, ''), checksum: sha256(join(dir, file)) }));

/** The database as the runner left it before it kept checksums: the same migrations, no checksum column. */
async function migrateAsBeforeChecksums(db: Database, dir: string): Promise<void> {
  await db.exec('CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL)');
  for (const file of readdirSync(dir).sort()) {
    await db.exec(readFileSync(join(dir, file), 'utf8'));
    await db.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2::timestamptz)', [
      file.replace(/\.sql$/, ''),
      at,
    ]);
  }
}

it('0004 gives the shipped prizes their voucher details, earlier vouchers a validity, and the tote bag a value', async () => {
  const db = await newPglite();
  const before = mkdtempSync(join(tmpdir(), 'api-migrations-before-'));
  try {
    for (const file of ['0001_initial.sql', '0002_redeem_session_owner.sql']) {
      cpSync(join(MIGRATIONS_DIR, file), join(before, file));
    }
    await migrate(db, before);
    // The shipped catalogue as it was seeded then, and one redemption of its time.
    await db.exec(`
      INSERT INTO prizes (id, name, description, value, icon, stock, weight, created_at) VALUES
        ('tote-bag', 'Tote bag', 'A bag.', '{"label":"Tote bag"}', 'mdi:shopping', 1, 1, '2030-01-01T00:00:00Z'),
        ('own-prize', 'Own prize', 'Of the operator.', '{"label":"One thing"}', 'mdi:gift', 1, 1, '2030-01-01T00:00:00Z');
      INSERT INTO gifts (id, prize_id, status, created_at, expires_at, redeemed_at) VALUES
        ('g1', 'tote-bag', 'redeemed', '2030-01-01T00:00:00Z', '2030-01-31T00:00:00Z', '2030-01-02T10:00:00Z');
      INSERT INTO redeem_sessions (id, gift_id, status, created_at, expires_at, completed_at, email, voucher_code) VALUES
        ('s1', 'g1', 'completed', '2030-01-02T09:55:00Z', '2030-01-02T10:25:00Z', '2030-01-02T10:00:00Z', 'a@example.com', 'CODE');
    `);

    expect(await migrate(db)).toEqual(shipped().filter((version) => version > '0002_redeem_session_owner'));

    const prizes = await db.query<{ id: string; value: unknown; how_to_use: string; voucher_valid_days: number }>(
      'SELECT id, value, how_to_use, voucher_valid_days FROM prizes ORDER BY id',
    );
    expect(prizes).toEqual([
      { id: 'own-prize', value: { label: 'One thing' }, how_to_use: '', voucher_valid_days: 90 },
      {
        id: 'tote-bag',
        value: { amount: 15, currency: 'EUR' },
        how_to_use: expect.stringContaining('code'),
        voucher_valid_days: 60,
      },
    ]);
    const [session] = await db.query<{ voucher_valid_until: Date }>('SELECT voucher_valid_until FROM redeem_sessions');
    expect(session?.voucher_valid_until.toISOString()).toBe('2030-03-03T10:00:00.000Z');
  } finally {
    await db.close();
    rmSync(before, { recursive: true, force: true });
  }
});

it('records the sha256 of each migration file it applies', async () => {
  const db = await newPglite();
  try {
    await migrate(db);
    expect(await recorded(db)).toEqual(checksumsOf(MIGRATIONS_DIR));
  } finally {
    await db.close();
  }
});

it('refuses to migrate when an applied migration’s file has changed, naming it, and applies nothing', async () => {
  const db = await newPglite();
  try {
    await migrate(db, folder);
    const before = await recorded(db);
    appendFileSync(join(folder, '0001_initial.sql'), '\nCREATE INDEX prizes_value ON prizes (id);\n');
    writeFileSync(join(folder, '0003_later.sql'), 'CREATE TABLE later (id text PRIMARY KEY);');

    const migrating = migrate(db, folder);

    await expect(migrating).rejects.toThrow(MigrationChangedError);
    await expect(migrating).rejects.toThrow(
      `the migration ${join(folder, '0001_initial.sql')} was changed after it was applied`,
    );
    expect(await recorded(db)).toEqual(before);
    expect(await db.query("SELECT to_regclass('later') AS later")).toEqual([{ later: null }]);
  } finally {
    await db.close();
  }
});

it('fills in the checksums of migrations applied before checksums were kept, and holds them to it', async () => {
  const db = await newPglite();
  try {
    await migrateAsBeforeChecksums(db, folder);
    appendFileSync(join(folder, '0002_redeem_session_owner.sql'), '\n-- a comment added since\n');

    expect(await migrate(db, folder)).toEqual([]);
    expect(await recorded(db)).toEqual(checksumsOf(folder));

    appendFileSync(join(folder, '0002_redeem_session_owner.sql'), '-- and another\n');
    await expect(migrate(db, folder)).rejects.toThrow(`${join(folder, '0002_redeem_session_owner.sql')} was changed`);
  } finally {
    await db.close();
  }
});

it('upgrades a database from before checksums once when two processes start together on PostgreSQL', async () => {
  const database = await createTestDatabase();
  const pools: Database[] = [openPostgres(database.url), openPostgres(database.url)];
  try {
    await migrateAsBeforeChecksums(pools[0]!, folder);
    writeFileSync(join(folder, '0003_later.sql'), 'CREATE TABLE later (id text PRIMARY KEY);');

    const applied = await Promise.all(pools.map((db) => migrate(db, folder)));

    expect(applied.map((versions) => versions.join()).sort()).toEqual(['', '0003_later']);
    expect(await recorded(pools[0]!)).toEqual(checksumsOf(folder));
  } finally {
    await Promise.all(pools.map((db) => db.close()));
    await database.drop();
  }
});

it('the API refuses to start on a database where an applied migration’s file has changed, naming the file', async () => {
  const database = await createTestDatabase();
  const db = openPostgres(database.url);
  try {
    await migrate(db);
    // As if 0001_initial.sql had been edited after this database applied it.
    await db.query("UPDATE schema_migrations SET checksum = repeat('0', 64) WHERE version = '0001_initial'");

    const { code, output } = await runToExit({ DATABASE_URL: database.url });

    expect(code).toBe(1);
    expect(output).toContain(`cannot prepare the database (PostgreSQL at`);
    expect(output).toContain(
      `the migration ${join(MIGRATIONS_DIR, '0001_initial.sql')} was changed after it was applied to this database`,
    );
  } finally {
    await db.close();
    await database.drop();
  }
});
