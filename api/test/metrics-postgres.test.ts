/**
 * On PostgreSQL: the pool's connections as a scrape sees them, requests waiting for one, and a
 * database that cannot be reached counted as such (with its 503s by route).
 */
import { Client } from 'pg';
import { Registry } from 'prom-client';
import { freePort } from 'testbed/free-port';
import { type Database } from '../src/db/database';
import { openPostgres } from '../src/db/pg-database';
import { buildApp } from '../src/server';
import { harnessFor } from './support/harness';
import { valueOf } from './support/metrics';
import { get, newVisitor, post, winGift } from './support/test-app';
import { testConfig } from './support/test-config';

const harness = harnessFor('postgres');
const POOL = 'giftbox_db_pool_connections';

const poolState = async (metrics: Registry) => ({
  total: await valueOf(metrics, POOL, { state: 'total' }),
  idle: await valueOf(metrics, POOL, { state: 'idle' }),
  waiting: await valueOf(metrics, POOL, { state: 'waiting' }),
});

/** Resolves once `check` holds, reading again after each turn of the event loop's timers. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

it('shows the pool’s open and idle connections at each scrape', async () => {
  const { app, metrics } = await harness.start();
  const giftId = await winGift(app);
  await post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie: newVisitor() });

  const state = await poolState(metrics);
  expect(state.total).toBeGreaterThanOrEqual(1);
  expect(state.idle).toBe(state.total);
  expect(state.waiting).toBe(0);
});

it('shows requests waiting for a connection while every one is busy', async () => {
  let small: Database | undefined;
  const { app, metrics } = await harness.start(
    {},
    { db: () => (small = openPostgres(harness.url ?? '', { poolSize: 1 })) },
  );
  const giftId = await winGift(app);
  // Another session holds the gift's row: the first request's transaction waits on it, holding
  // the pool's one connection, and the second waits for that connection.
  const holder = new Client({ connectionString: harness.url });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM gifts WHERE id = $1 FOR UPDATE', [giftId]);
    const first = post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie: newVisitor() });
    const second = post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie: newVisitor() });
    await until(async () => (await poolState(metrics)).waiting === 1);
    expect(await poolState(metrics)).toEqual({ total: 1, idle: 0, waiting: 1 });
    await holder.query('COMMIT');
    expect((await first).statusCode).toBe(201);
    expect((await second).statusCode).toBe(201);
  } finally {
    await holder.end();
    await small?.close();
  }
  expect((await poolState(metrics)).waiting).toBe(0);
});

it('counts a database it cannot reach as "unavailable", and the 503s by route', async () => {
  const nowhere = `postgres://postgres@127.0.0.1:${await freePort()}/gifts`;
  const db = openPostgres(nowhere, { poolSize: 2 });
  const metrics = new Registry();
  const app = await buildApp({ config: testConfig(), db, metrics });
  try {
    const gift = await get(app, '/api/gifts/AAAAAAAAAAAAAAAAAAAAAAAA');
    const ready = await get(app, '/api/health/ready');

    expect(gift.statusCode).toBe(503);
    expect(ready.statusCode).toBe(503);
    expect(await valueOf(metrics, 'giftbox_db_errors_total', { kind: 'unavailable' })).toBe(2);
    expect(await valueOf(metrics, 'giftbox_db_errors_total', { kind: 'query' })).toBe(0);
    expect(await valueOf(metrics, 'giftbox_unavailable_total', { route: '/api/gifts/:giftId' })).toBe(1);
    expect(await valueOf(metrics, 'giftbox_unavailable_total', { route: '/api/health/ready' })).toBe(1);
  } finally {
    await app.close();
    await db.close();
  }
});
