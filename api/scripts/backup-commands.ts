/** docs/operations.md's backup commands word for word: the drill runs them, a test checks the guide prints them. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const BACKUP_COMMANDS = {
  /** The client's version: its major must be the server's. */
  dumpVersion: 'pg_dump --version',
  dump: 'pg_dump --format=custom --file="$BACKUP_FILE" "$DATABASE_URL"',
  /** What a dump holds: a damaged or truncated file fails here. */
  list: 'pg_restore --list "$BACKUP_FILE"',
  /** A database that is still there but damaged goes first (every API process stopped). */
  drop: 'dropdb --force --maintenance-db="$ADMIN_DATABASE_URL" "$DATABASE_NAME"',
  restore: 'pg_restore --create --exit-on-error --dbname="$ADMIN_DATABASE_URL" "$BACKUP_FILE"',
} as const;

export type BackupCommand = keyof typeof BACKUP_COMMANDS;

export interface BackupVariables {
  BACKUP_FILE: string;
  DATABASE_URL: string;
  DATABASE_NAME: string;
  ADMIN_DATABASE_URL: string;
}

export async function runBackupCommand(name: BackupCommand, variables: BackupVariables): Promise<string> {
  const command = BACKUP_COMMANDS[name];
  try {
    const { stdout } = await run('sh', ['-c', command], {
      env: { ...process.env, ...variables },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${command} failed: ${(stderr || stdout || (error as Error).message).trim()}`);
  }
}

/** The major version in `pg_dump --version`'s answer ("pg_dump (PostgreSQL) 15.18 (Debian …)"). */
export function majorOfVersion(answer: string): number {
  const major = /\(PostgreSQL\) (\d+)/.exec(answer)?.[1];
  if (!major) throw new Error(`Not a PostgreSQL client's version: ${answer.trim()}`);
  return Number(major);
}
