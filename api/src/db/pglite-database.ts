import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Database, type Queryable } from './database';
import { redactDatabaseError } from './redact-error';

export const IN_MEMORY = 'memory://';

interface PgliteSession {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
}

export interface PgliteOptions {
  /** A `dumpDataDir` to start from: initdb costs seconds of CPU. */
  loadDataDir?: Blob;
  /** A file holding such a dump, for a folder with no database yet; one that has one opens as it is. */
  initialData?: string;
}

async function startingData(dataDir: string, options: PgliteOptions): Promise<Blob | undefined> {
  if (options.loadDataDir || !options.initialData) return options.loadDataDir;
  if (dataDir !== IN_MEMORY && existsSync(join(dataDir, 'PG_VERSION'))) return undefined;
  return new Blob([await readFile(options.initialData)]);
}

export async function openPglite(dataDir: string = IN_MEMORY, options: PgliteOptions = {}): Promise<Database> {
  if (dataDir !== IN_MEMORY) await mkdir(dataDir, { recursive: true });
  const loadDataDir = await startingData(dataDir, options);
  const pg = await PGlite.create({
    ...(dataDir === IN_MEMORY ? {} : { dataDir }),
    ...(loadDataDir ? { loadDataDir } : {}),
  });

  const wrap = (target: PgliteSession): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      try {
        const result = await target.query<T>(sql, [...params]);
        return result.rows;
      } catch (error) {
        throw redactDatabaseError(error, params);
      }
    },
    async exec(sql: string) {
      try {
        await target.exec(sql);
      } catch (error) {
        throw redactDatabaseError(error);
      }
    },
  });

  // One session: one statement or transaction at a time.
  return {
    driver: 'pglite',
    ...wrap(pg),
    transaction: (work) => pg.transaction((tx) => work(wrap(tx))),
    // One process, one session: notifications cannot be missed.
    listen: async (channel, subscriber) => pg.listen(channel, (payload) => subscriber.message(payload)),
    close: () => pg.close(),
  };
}
