/** Times are parameters, never `now()`: tests move time. */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly driver: 'pglite' | 'postgres';
  /** `work` uses `tx` only: PGlite has one connection. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  listen(channel: string, subscriber: Subscriber): Promise<() => Promise<void>>;
  close(): Promise<void>;
  poolStats?(): PoolStats;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Subscriber {
  message(payload: string): void;
  gap(): void;
  resumed(): void;
}

/** Answered 503; a loss during COMMIT may still commit, so repeatable writes are idempotent. */
export class DatabaseUnavailableError extends Error {
  constructor(readonly reason: Error) {
    super(`the database is unavailable: ${reason.message}`);
    this.name = 'DatabaseUnavailableError';
  }
}
