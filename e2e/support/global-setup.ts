/**
 * Runs once before any worker starts: a fresh folder for the run's files, then the build and,
 * beside it, the API's initialised data folder the workers copy (api-data.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { makeApiDataTemplate } from './api-data';
import { ensureBuilt } from './build';
import { OUTSIDE_TMP_DIR, RUN_LOG_DIR, SUITE_TMP_DIR } from './test-env';

export default async function globalSetup(): Promise<void> {
  rmSync(SUITE_TMP_DIR, { recursive: true, force: true });
  rmSync(OUTSIDE_TMP_DIR, { recursive: true, force: true });
  mkdirSync(RUN_LOG_DIR, { recursive: true });
  await Promise.all([ensureBuilt(), makeApiDataTemplate()]);
}
