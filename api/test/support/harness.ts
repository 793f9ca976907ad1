/**
 * Per test file: one database of the given driver; per test: emptied, seeded, and a fresh app
 * with its own hand-moved clock. Apps are closed after each test, the database after the file.
 */
import { Registry } from 'prom-client';
import { type App } from '../../src/app-context';
import { type CataloguePrize } from '../../src/catalogue/catalogue';
import { type Database } from '../../src/db/database';
import { buildApp } from '../../src/server';
import { type ConfigOverrides, testConfig } from './test-config';
import { type TestClock, testClock } from './test-clock';
import { type Driver, openTestDb, type TestDb } from './test-db';

export interface Started {
  app: App;
  clock: TestClock;
  db: Database;
  /** The app's metrics registry: what `GET /metrics` would serve, without the process's own. */
  metrics: Registry;
}

export interface StartOptions {
  prizes?: CataloguePrize[];
  clock?: TestClock;
  /** Another view of the same database (for example one that counts queries). */
  db?: (db: Database) => Database;
  /** Where the app's JSON log lines go. */
  logStream?: NodeJS.WritableStream;
}

export interface Harness {
  readonly db: Database;
  readonly url: string | undefined;
  start(overrides?: ConfigOverrides, options?: StartOptions): Promise<Started>;
}

export function harnessFor(driver: Driver): Harness {
  let testDb: TestDb | undefined;
  const apps: App[] = [];
  const current = (): TestDb => {
    if (!testDb) throw new Error('the test database is not open yet');
    return testDb;
  };

  beforeAll(async () => {
    testDb = await openTestDb(driver);
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    await testDb?.close();
  });

  return {
    get db() {
      return current().db;
    },
    get url() {
      return current().url;
    },
    async start(overrides = {}, options = {}) {
      const { db, reset } = current();
      await reset(options.prizes);
      const clock = options.clock ?? testClock();
      const metrics = new Registry();
      metrics.setDefaultLabels({ part: 'api' });
      const app = await buildApp({
        config: testConfig(overrides),
        db: options.db ? options.db(db) : db,
        now: clock.now,
        metrics,
        logStream: options.logStream,
      });
      await app.ready();
      apps.push(app);
      return { app, clock, db, metrics };
    },
  };
}

/** Wraps a database, counting every statement and transaction it is asked to run. */
export function countingDb(db: Database, counter: { calls: number }): Database {
  return {
    driver: db.driver,
    query: (sql, params) => {
      counter.calls += 1;
      return db.query(sql, params);
    },
    exec: (sql) => {
      counter.calls += 1;
      return db.exec(sql);
    },
    transaction: (work) => {
      counter.calls += 1;
      return db.transaction(work);
    },
    listen: (channel, subscriber) => db.listen(channel, subscriber),
    close: () => db.close(),
  };
}
