/** Runs once before any worker starts: a fresh folder for the run's files, then the build. */
import { mkdirSync, rmSync } from 'node:fs';
import { ensureBuilt } from './build';
import { OUTSIDE_TMP_DIR, RUN_LOG_DIR, SUITE_TMP_DIR } from './test-env';

export default async function globalSetup(): Promise<void> {
  rmSync(SUITE_TMP_DIR, { recursive: true, force: true });
  rmSync(OUTSIDE_TMP_DIR, { recursive: true, force: true });
  mkdirSync(RUN_LOG_DIR, { recursive: true });
  await ensureBuilt();
}
