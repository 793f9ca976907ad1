/**
 * Database failures as the API meets them, and the pool's connections at each scrape. A failure
 * is classified as the API already classifies it for its answer: DatabaseUnavailableError (the
 * database could not be reached: a 503) is "unavailable"; any other failed statement is "query".
 * An error a transaction's own code throws (a 404, a 409) is not a database failure.
 */
import { type Database, DatabaseUnavailableError, type Queryable, type Row } from '../db/database';
import { type ApiMetrics } from './api-metrics';

/** `db`, counting its failures in `metrics` and showing its pool's connections there. */
export function instrumentDatabase(db: Database, metrics: ApiMetrics): Database {
  // Inside a transaction a statement's error passes through the transaction's code before the
  // driver classifies it: remember which errors came from a statement, count them once, at the end.
  const fromStatements = new WeakSet<object>();
  const count = (error: unknown, fromStatement: boolean) => {
    if (error instanceof DatabaseUnavailableError) metrics.databaseErrors.inc({ kind: 'unavailable' });
    else if (fromStatement || (typeof error === 'object' && error !== null && fromStatements.has(error)))
      metrics.databaseErrors.inc({ kind: 'query' });
  };
  const statements = (target: Queryable, mark: (error: unknown) => void): Queryable => ({
    query: <T extends Row>(sql: string, params?: readonly unknown[]) =>
      target.query<T>(sql, params).catch((error: unknown) => {
        mark(error);
        throw error;
      }),
    exec: (sql) =>
      target.exec(sql).catch((error: unknown) => {
        mark(error);
        throw error;
      }),
  });
  const poolStats = db.poolStats?.bind(db);
  if (poolStats) metrics.watchPool(poolStats);
  return {
    driver: db.driver,
    ...statements(db, (error) => count(error, true)),
    transaction: (work) =>
      db
        .transaction((tx) =>
          work(
            statements(tx, (error) => {
              if (typeof error === 'object' && error !== null) fromStatements.add(error);
            }),
          ),
        )
        .catch((error: unknown) => {
          count(error, false);
          throw error;
        }),
    listen: (channel, subscriber) => db.listen(channel, subscriber),
    close: () => db.close(),
    ...(poolStats ? { poolStats } : {}),
  };
}
