/** Stops the PostgreSQL cluster globalSetup started, and removes its folder and the PGlite template's. */
import { rmSync } from 'node:fs';
import { PGLITE_TEMPLATE_DIR_ENV } from './pglite-template';

export default async function globalTeardown(): Promise<void> {
  const templates = process.env[PGLITE_TEMPLATE_DIR_ENV];
  if (templates) rmSync(templates, { recursive: true, force: true });
  const cluster = globalThis.apiTestPostgresCluster;
  globalThis.apiTestPostgresCluster = undefined;
  await cluster?.stop();
}
