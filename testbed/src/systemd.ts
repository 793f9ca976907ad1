/** Debian's systemd-analyze, which checks unit files without running them. */
import { spawnSync } from 'node:child_process';

export const SYSTEMD_ANALYZE_PATH = process.env.SYSTEMD_ANALYZE_PATH ?? '/usr/bin/systemd-analyze';

export interface Verified {
  status: number | null;
  /** An unknown key is only a warning. */
  output: string;
}

export function verifyUnits(paths: string[]): Verified {
  const run = spawnSync(SYSTEMD_ANALYZE_PATH, ['verify', ...paths], { encoding: 'utf8', timeout: 60_000 });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}
