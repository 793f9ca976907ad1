/**
 * Databases for tests: in-memory PGlite or a fresh database on the test PostgreSQL server,
 * migrated, with a small known catalogue, and reset between tests.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Catalogue, type CataloguePrize } from '../../src/catalogue/catalogue';
import { seedPrizes } from '../../src/catalogue/seed';
import { type Database } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { openPostgres } from '../../src/db/pg-database';
import { IN_MEMORY, openPglite } from '../../src/db/pglite-database';
import { createTestDatabase } from 'testbed/postgres';
import { PGLITE_TEMPLATE_DIR_ENV } from './pglite-template';

export type Driver = 'pglite' | 'postgres';

export const PRIZES: CataloguePrize[] = [
  {
    id: 'coffee',
    name: 'Coffee voucher',
    description: 'A coffee.',
    value: { label: 'One free coffee' },
    howToUse: 'Show the code at the counter of any partner café.',
    conditions: 'One hot drink. Not exchangeable for cash.',
    voucherValidDays: 90,
    icon: 'mdi:coffee',
    stock: 100,
    weight: 3,
  },
  {
    id: 'gift-card',
    name: '10 EUR gift card',
    description: 'A gift card.',
    value: { amount: 10, currency: 'EUR' },
    howToUse: 'Enter the code at checkout in a partner shop.',
    conditions: 'Usable until spent.',
    voucherValidDays: 365,
    icon: 'mdi:gift',
    stock: 100,
    weight: 1,
  },
];

export interface TestDb {
  db: Database;
  /** Empties every table and seeds `prizes` (the default catalogue when omitted). */
  reset(prizes?: CataloguePrize[]): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the database's URL, for other processes. */
  url?: string;
}

/**
 * A new PGlite database in memory is PostgreSQL's initdb in WebAssembly, about 4 s of CPU; one
 * started from a copy of an initialised one takes well under 1 s. The first test file of a run
 * that needs one writes that copy (PGlite's dump of a new, empty database) to the run's folder
 * (global-setup.ts), and the others start from it, as do the API processes the tests start
 * (PGLITE_INITIAL_DATA). Each still migrates and seeds its own; one from newPglite is as new (no table).
 */
export async function newPglite(): Promise<Database> {
  const template = await pgliteTemplate();
  return template ? openPglite(IN_MEMORY, { loadDataDir: new Blob([readFileSync(template)]) }) : openPglite();
}

/** The run's dump of a new, empty database (written by the first caller), or none outside a jest run. */
export async function pgliteTemplate(): Promise<string | undefined> {
  const folder = process.env[PGLITE_TEMPLATE_DIR_ENV];
  if (!folder) return undefined;
  const template = join(folder, 'initialised.tar');
  if (!existsSync(template)) {
    const fresh = await PGlite.create();
    const dump = Buffer.from(await (await fresh.dumpDataDir('none')).arrayBuffer());
    await fresh.close();
    // Written whole under a name of this process's, then renamed: a reader never sees half of it.
    const writing = `${template}.${process.pid}`;
    writeFileSync(writing, dump);
    renameSync(writing, template);
  }
  return template;
}

export async function openTestDb(driver: Driver): Promise<TestDb> {
  let db: Database;
  let drop: () => Promise<void> = async () => undefined;
  let url: string | undefined;
  if (driver === 'pglite') {
    db = await newPglite();
  } else {
    const created = await createTestDatabase();
    url = created.url;
    drop = created.drop;
    db = openPostgres(created.url, { poolSize: 20 });
  }
  await migrate(db);
  const reset = async (prizes: CataloguePrize[] = PRIZES) => {
    await db.exec('TRUNCATE plays, rate_counters, redeem_sessions, gifts, prizes');
    const catalogue: Catalogue = { prizes };
    await seedPrizes(db, async () => catalogue, new Date('2030-01-01T00:00:00.000Z'));
  };
  await reset();
  return {
    db,
    reset,
    url,
    close: async () => {
      await db.close();
      await drop();
    },
  };
}
