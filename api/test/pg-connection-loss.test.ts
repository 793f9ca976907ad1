/**
 * A connection lost while a request holds it (the server restarted, an operator killed the
 * backend) fails that request as "database unavailable" and nothing else: the process lives,
 * the transaction is rolled back, and the pool hands out a fresh connection next time.
 */
import { Client } from 'pg';
import { type Database, DatabaseUnavailableError } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { isConnectionFailure, openPostgres } from '../src/db/pg-database';
import { createTestDatabase, type TestDatabase } from 'testbed/postgres';

let database: TestDatabase;
let db: Database;
const lost: Error[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = openPostgres(database.url, { poolSize: 2, onConnectionError: (error) => lost.push(error) });
  await migrate(db);
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

async function terminate(pid: number): Promise<void> {
  const admin = new Client({ connectionString: database.url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

it('fails a transaction whose connection is killed between statements as unavailable, rolls it back, and recovers', async () => {
  const attempt = db.transaction(async (tx) => {
    await tx.query(
      "INSERT INTO prizes (id, name, description, value, icon, stock, weight, created_at) VALUES ('lost', 'Lost', 'x', '{\"label\":\"x\"}', 'mdi:gift', 1, 1, now())",
    );
    const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await terminate(row?.pid ?? 0);
    // The client's 'error' event fires while the request still holds it: it must not crash the process.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await tx.query('SELECT 1');
  });
  await expect(attempt).rejects.toBeInstanceOf(DatabaseUnavailableError);
  expect(lost.length).toBeGreaterThan(0);
  expect(await db.query("SELECT id FROM prizes WHERE id = 'lost'")).toEqual([]);
  // Every pooled connection works again (the broken one was destroyed, not reused).
  const answers = await Promise.all(Array.from({ length: 4 }, () => db.query<{ one: number }>('SELECT 1 AS one')));
  expect(answers.flat()).toEqual(Array(4).fill({ one: 1 }));
});

it('fails a single query whose connection is killed as unavailable', async () => {
  const [row] = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  await terminate(row?.pid ?? 0);
  // The pool may hand out the killed connection before it notices; either way nothing crashes.
  const results = await Promise.allSettled([db.query('SELECT 1'), db.query('SELECT 1')]);
  for (const result of results) {
    if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(DatabaseUnavailableError);
  }
  expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
});

it('answers "unavailable" when the server cannot be reached at all', async () => {
  const nowhere = openPostgres('postgres://nobody@127.0.0.1:9/none');
  try {
    await expect(nowhere.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(nowhere.transaction(async (tx) => tx.query('SELECT 1'))).rejects.toBeInstanceOf(
      DatabaseUnavailableError,
    );
  } finally {
    await nowhere.close();
  }
});

describe('isConnectionFailure', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it.each([
    [withCode('ECONNREFUSED'), true],
    [withCode('ECONNRESET'), true],
    [withCode('57P01', 'terminating connection due to administrator command'), true],
    [withCode('57P03', 'the database system is starting up'), true],
    [withCode('08006'), true],
    [new Error('Connection terminated unexpectedly'), true],
    [new Error('Client has encountered a connection error and is not queryable'), true],
    [new Error('timeout exceeded when trying to connect'), true],
    [withCode('23505', 'duplicate key value violates unique constraint'), false],
    [withCode('40001', 'could not serialize access'), false],
    [withCode('42P01', 'relation "x" does not exist'), false],
    [new Error('Connection terminated unexpectedly in a message with a SQL code'), true],
  ])('%s → %s', (error, expected) => {
    expect(isConnectionFailure(error)).toBe(expected);
  });
});
