/** Once per jest run: a PostgreSQL server for every test file (see postgres.ts). */
import { ADMIN_URL_ENV, type Cluster, startCluster } from 'testbed/postgres';

declare global {
  var apiTestPostgresCluster: Cluster | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) {
    process.env[ADMIN_URL_ENV] = process.env.TEST_DATABASE_URL;
    return;
  }
  const cluster = await startCluster();
  globalThis.apiTestPostgresCluster = cluster;
  // Also when jest is interrupted or globalTeardown never runs.
  process.once('exit', () => cluster.stopSync());
  process.env[ADMIN_URL_ENV] = cluster.url;
}
