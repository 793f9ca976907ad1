/** Database failures as answered: unreachable (503) is "unavailable", any other failed statement "query". */
import { type Database, DatabaseUnavailableError, type Queryable, type Row } from '../db/database';
import { type ApiMetrics } from './api-metrics';

export function instrumentDatabase(db: Database, metrics: ApiMetrics): Database {
  // A statement's error passes through the transaction's code: counted once, at the end.
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
