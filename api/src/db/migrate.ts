/**
 * Applies api/migrations/NNNN_name.sql in order, each once, recorded in schema_migrations with
 * the sha256 of its file. All pending migrations run in one transaction under an advisory lock,
 * so two processes starting together apply them once and neither sees a half-migrated schema.
 * An applied migration whose file has changed since stops the start: the database holds what
 * the file said then, so the change belongs in a new migration.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_ROOT } from '../config';
import { type Database, type Queryable } from './database';

export const MIGRATIONS_DIR = join(API_ROOT, 'migrations');
const MIGRATION_FILE = /^(\d{4})_[a-z0-9_-]+\.sql$/;
/** Any constant shared by every process; "gift" in ASCII. */
export const MIGRATION_LOCK_KEY = 0x67696674;

async function migrationFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => MIGRATION_FILE.test(name)).sort();
}

const versionOf = (file: string) => file.replace(/\.sql$/, '');

export class MigrationChangedError extends Error {
  /** `file`: the migration's path. */
  constructor(readonly file: string) {
    super(
      `the migration ${file} was changed after it was applied to this database (its sha256 differs from the one recorded). ` +
        'Restore the file as it was applied and put the change in a new migration.',
    );
    this.name = 'MigrationChangedError';
  }
}

/** The versions this build knows, read once per folder. */
const knownVersions = new Map<string, Promise<string[]>>();

/** The migrations this build knows that the database has not applied (all of them before the first). */
export async function pendingMigrations(db: Queryable, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  let known = knownVersions.get(dir);
  if (!known) {
    known = migrationFiles(dir).then((files) => files.map(versionOf));
    knownVersions.set(dir, known);
  }
  const [table] = await db.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (!table?.present) return known;
  const rows = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
  const applied = new Set(rows.map((row) => row.version));
  return (await known).filter((version) => !applied.has(version));
}

export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = await migrationFiles(dir);
  const scripts = await Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(join(dir, file));
      return {
        file,
        version: versionOf(file),
        sql: bytes.toString('utf8'),
        checksum: createHash('sha256').update(bytes).digest('hex'),
      };
    }),
  );

  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL, checksum text);
      ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text;`);
    const rows = await tx.query<{ version: string; checksum: string | null }>(
      'SELECT version, checksum FROM schema_migrations',
    );
    const recorded = new Map(rows.map((row) => [row.version, row.checksum]));
    for (const script of scripts.filter((candidate) => recorded.has(candidate.version))) {
      const checksum = recorded.get(script.version);
      // Applied before checksums were kept: take the file as it is now.
      if (checksum === null)
        await tx.query('UPDATE schema_migrations SET checksum = $1 WHERE version = $2', [
          script.checksum,
          script.version,
        ]);
      else if (checksum !== script.checksum) throw new MigrationChangedError(join(dir, script.file));
    }
    const pending = scripts.filter((script) => !recorded.has(script.version));
    for (const script of pending) {
      await tx.exec(script.sql);
      await tx.query('INSERT INTO schema_migrations (version, applied_at, checksum) VALUES ($1, $2::timestamptz, $3)', [
        script.version,
        new Date(),
        script.checksum,
      ]);
    }
    return pending.map((script) => script.version);
  });
}
