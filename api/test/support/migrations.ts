/** The migrations this build ships, by version, in order: tests name them without listing them. */
import { readdirSync } from 'node:fs';
import { MIGRATIONS_DIR } from '../../src/db/migrate';

export function shippedMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => file.replace(/\.sql$/, ''));
}
