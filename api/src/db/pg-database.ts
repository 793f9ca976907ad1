/** The server driver: a `pg` connection pool to a real PostgreSQL (`DATABASE_URL`). */
import { Pool, type PoolClient } from 'pg';
import { type Database, type Queryable } from './database';

// Deadlock and serialisation failures are safe to retry: the transaction was rolled back whole.
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 3;

export interface PgOptions {
  /** Connections in the pool. */
  poolSize?: number;
  onIdleError?: (error: Error) => void;
}

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function wrap(client: Pick<PoolClient, 'query'>): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, [...params]);
      return result.rows as T[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export function openPostgres(url: string, options: PgOptions = {}): Database {
  const pool = new Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle connection dropped by the server must not crash the process; the pool replaces it.
  pool.on('error', (error) => options.onIdleError?.(error));

  async function attempt<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(wrap(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  return {
    driver: 'postgres',
    ...wrap(pool),
    async transaction(work) {
      for (let tries = 1; ; tries += 1) {
        try {
          return await attempt(work);
        } catch (error) {
          if (tries >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
        }
      }
    },
    close: () => pool.end(),
  };
}
