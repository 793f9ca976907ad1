/**
 * Health for load balancers: liveness never depends on the database; readiness needs the
 * database, every migration of this build, and a process that is not shutting down.
 */
import { type App, type Lifecycle } from '../src/app-context';
import { type Database, DatabaseUnavailableError } from '../src/db/database';
import { buildApp } from '../src/server';
import { harnessFor } from './support/harness';
import { shippedMigrations } from './support/migrations';
import { get } from './support/test-app';
import { testConfig } from './support/test-config';
import { newPglite } from './support/test-db';

const harness = harnessFor('postgres');
const apps: App[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function appOn(db: Database, lifecycle: Lifecycle = { stopping: false }): Promise<App> {
  const app = await buildApp({ config: testConfig(), db, lifecycle });
  apps.push(app);
  return app;
}

const statuses = async (app: App) =>
  Object.fromEntries(
    await Promise.all(
      ['/api/health/live', '/api/health/ready', '/api/health'].map(async (path) => [
        path,
        (await get(app, path)).statusCode,
      ]),
    ),
  );

it('is live and ready with a migrated database', async () => {
  const app = await appOn(harness.db);
  expect(await statuses(app)).toEqual({ '/api/health/live': 200, '/api/health/ready': 200, '/api/health': 200 });
  expect((await get(app, '/api/health/ready')).json()).toEqual({ status: 'ok' });
});

it('is live but not ready while the database is unreachable', async () => {
  const down: Database = {
    ...harness.db,
    query: () => Promise.reject(new DatabaseUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432'))),
  };
  const app = await appOn(down);
  expect(await statuses(app)).toEqual({ '/api/health/live': 200, '/api/health/ready': 503, '/api/health': 503 });
  expect((await get(app, '/api/health/ready')).json()).toEqual({
    statusCode: 503,
    statusMessage: 'Service Unavailable',
    message: 'Not ready: the database is unavailable.',
  });
});

it('is not ready before the migrations of this build are applied', async () => {
  const empty = await newPglite();
  try {
    const app = await appOn(empty);
    expect(await statuses(app)).toEqual({ '/api/health/live': 200, '/api/health/ready': 503, '/api/health': 503 });
    expect((await get(app, '/api/health/ready')).json().message).toBe(
      `Not ready: database migrations not applied yet (${shippedMigrations().join(', ')}).`,
    );
  } finally {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await empty.close();
  }
});

it('is not ready once shutting down, while other requests are still served', async () => {
  const lifecycle = { stopping: false };
  const app = await appOn(harness.db, lifecycle);
  lifecycle.stopping = true;
  expect(await statuses(app)).toEqual({ '/api/health/live': 200, '/api/health/ready': 503, '/api/health': 503 });
  expect((await get(app, '/api/health/ready')).json().message).toBe('Not ready: shutting down.');
  expect((await get(app, '/api/gifts/AAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
});
