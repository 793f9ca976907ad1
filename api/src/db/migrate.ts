/**
 * Applies api/migrations/NNNN_name.sql in order, each once, recorded in schema_migrations.
 * All pending migrations run in one transaction under an advisory lock, so two processes starting
 * together apply them once and neither sees a half-migrated schema.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Database } from './database';

export const MIGRATIONS_DIR = join(__dirname, '..', '..', 'migrations');
const MIGRATION_FILE = /^(\d{4})_[a-z0-9_-]+\.sql$/;
/** Any constant shared by every process; "gift" in ASCII. */
export const MIGRATION_LOCK_KEY = 0x67696674;

export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => MIGRATION_FILE.test(name)).sort();
  const scripts = await Promise.all(files.map(async (name) => ({ version: name.replace(/\.sql$/, ''), sql: await readFile(join(dir, name), 'utf8') })));

  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL)');
    const rows = await tx.query<{ version: string }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const pending = scripts.filter((script) => !applied.has(script.version));
    for (const script of pending) {
      await tx.exec(script.sql);
      await tx.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2::timestamptz)', [script.version, new Date()]);
    }
    return pending.map((script) => script.version);
  });
}
