/**
 * Once per jest run: a PostgreSQL server for every test file (see postgres.ts), and the folder
 * for the initialised PGlite database the test files start theirs from (test-db.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_URL_ENV, type Cluster, startCluster } from 'testbed/postgres';
import { PGLITE_TEMPLATE_DIR_ENV } from './pglite-template';

declare global {
  var apiTestPostgresCluster: Cluster | undefined;
}

export default async function globalSetup(): Promise<void> {
  const templates = mkdtempSync(join(tmpdir(), 'api-test-pglite-'));
  process.env[PGLITE_TEMPLATE_DIR_ENV] = templates;
  process.once('exit', () => rmSync(templates, { recursive: true, force: true }));
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
