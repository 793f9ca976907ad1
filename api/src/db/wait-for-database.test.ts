import { type Database, DatabaseUnavailableError } from './database';
import { MAX_DELAY_MS, waitForDatabase } from './wait-for-database';

/** A database whose first `failures` queries fail with `error`, on a clock the waits move. */
function flakyDatabase(failures: number, error: () => Error) {
  let clock = 0;
  let queries = 0;
  const db = {
    query: () => {
      queries += 1;
      return queries <= failures ? Promise.reject(error()) : Promise.resolve([]);
    },
  } as unknown as Database;
  const retries: Array<[number, string, number]> = [];
  const wait = (withinMs: number) =>
    waitForDatabase(db, {
      withinMs,
      onRetry: (attempt, reason, delayMs) => retries.push([attempt, reason, delayMs]),
      now: () => clock,
      sleep: (ms) => {
        clock += ms;
        return Promise.resolve();
      },
    });
  return { wait, retries, queries: () => queries };
}

const refused = () => new DatabaseUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432'));

describe('waitForDatabase', () => {
  it('asks again after a doubling wait, capped, until the database answers', async () => {
    const db = flakyDatabase(7, refused);
    await db.wait(60_000);
    expect(db.queries()).toBe(8);
    expect(db.retries.map(([, , delay]) => delay)).toEqual([250, 500, 1000, 2000, 4000, MAX_DELAY_MS, MAX_DELAY_MS]);
    expect(db.retries[0]).toEqual([1, 'connect ECONNREFUSED 127.0.0.1:5432', 250]);
  });

  it('gives up with the last error once its time is spent, its last wait cut to what was left', async () => {
    const db = flakyDatabase(Infinity, refused);
    await expect(db.wait(2_000)).rejects.toThrow('the database is unavailable: connect ECONNREFUSED');
    expect(db.retries.map(([, , delay]) => delay)).toEqual([250, 500, 1000, 250]);
  });

  it('tries once with no time to wait, and never waits on an error that asking again cannot mend', async () => {
    const once = flakyDatabase(Infinity, refused);
    await expect(once.wait(0)).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(once.queries()).toBe(1);
    const denied = flakyDatabase(Infinity, () => new Error('password authentication failed for user "gifts"'));
    await expect(denied.wait(60_000)).rejects.toThrow('password authentication failed');
    expect(denied.queries()).toBe(1);
    expect(denied.retries).toEqual([]);
  });
});
