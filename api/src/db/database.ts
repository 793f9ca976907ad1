/**
 * The storage port: plain parameterised SQL, the same statements for PGlite and PostgreSQL.
 * Timestamps are always passed in as parameters (never `now()` in SQL) so tests can move time.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  /** One statement with `$1…` parameters; the rows it returns (RETURNING included). */
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** A script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly driver: 'pglite' | 'postgres';
  /**
   * Runs `work` in one transaction (READ COMMITTED): committed when it resolves, rolled back when
   * it throws. `work` must use `tx` only, never the database itself (PGlite has one connection).
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Subscribes to `NOTIFY channel, payload` from any process (sent with `pg_notify` inside a
   * transaction, delivered once it commits). `gap` is called whenever notifications may have
   * been missed (the connection carrying them was lost, or is being re-established); `resumed`
   * once they flow again. Resolves with the unsubscribe function.
   */
  listen(channel: string, subscriber: Subscriber): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PostgreSQL's connection pool as it is now (PGlite has none). */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** Connections open, idle or checked out. */
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

export interface Subscriber {
  message(payload: string): void;
  gap(): void;
  resumed(): void;
}

/**
 * The database cannot be reached right now (connection refused or lost, server restarting).
 * Requests that meet it answer 503 with Retry-After; nothing they did was committed, unless the
 * connection was lost during COMMIT, which is why every write a client may repeat is idempotent.
 */
export class DatabaseUnavailableError extends Error {
  constructor(readonly reason: Error) {
    super(`the database is unavailable: ${reason.message}`);
    this.name = 'DatabaseUnavailableError';
  }
}
