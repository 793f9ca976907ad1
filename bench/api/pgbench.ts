/**
 * A reference for the PostgreSQL cluster itself: `pgbench -S` (one primary-key SELECT per
 * transaction) with the three query protocols: simple, extended (unnamed statements, what `pg`
 * sends for a parameterised query) and prepared (named statements, parsed and planned once).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = '/usr/lib/postgresql';

export function findPgbench(): string | undefined {
  if (!existsSync(ROOT)) return undefined;
  const versions = readdirSync(ROOT)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(ROOT, version, 'bin', 'pgbench')).find((path) => existsSync(path));
}

export interface PgbenchRun {
  mode: 'simple' | 'extended' | 'prepared';
  tps: number;
}

export async function runPgbench(
  binary: string,
  databaseUrl: string,
  options: { clients: number; seconds: number },
): Promise<PgbenchRun[]> {
  const url = new URL(databaseUrl);
  const connection = [
    '-h',
    url.hostname,
    '-p',
    url.port,
    '-U',
    decodeURIComponent(url.username),
    url.pathname.slice(1),
  ];
  await run(binary, ['-i', '-s', '1', '-q', ...connection], { timeout: 120_000 });
  const runs: PgbenchRun[] = [];
  for (const mode of ['simple', 'extended', 'prepared'] as const) {
    const args = [
      '-S',
      '-n',
      '-M',
      mode,
      '-c',
      String(options.clients),
      '-j',
      '2',
      '-T',
      String(options.seconds),
      ...connection,
    ];
    const { stdout } = await run(binary, args, { timeout: (options.seconds + 60) * 1000 });
    const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    runs.push({ mode, tps: Number(tps) });
  }
  return runs;
}
