/** Runs once before all test files: fresh logs, profiles and API data, then the build. */
import { mkdirSync, rmSync } from 'node:fs';
import { ensureBuilt } from './build';
import { API_DATA_DIR, LOG_DIR, PROFILE_DIR } from './test-env';

export default async function globalSetup(): Promise<void> {
  rmSync(LOG_DIR, { recursive: true, force: true });
  rmSync(PROFILE_DIR, { recursive: true, force: true });
  rmSync(API_DATA_DIR, { recursive: true, force: true });
  mkdirSync(LOG_DIR, { recursive: true });
  await ensureBuilt();
}
