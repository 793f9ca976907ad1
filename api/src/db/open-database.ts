/** PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite in its data folder. */
import { type ServerConfig } from '../config';
import { type Database } from './database';
import { openPostgres } from './pg-database';
import { openPglite } from './pglite-database';

export async function openDatabase(
  config: Pick<ServerConfig, 'databaseUrl' | 'databasePoolSize' | 'pgliteDataDir' | 'pgliteInitialData'>,
  onConnectionError?: (error: Error) => void,
): Promise<Database> {
  if (config.databaseUrl)
    return openPostgres(config.databaseUrl, { poolSize: config.databasePoolSize, onConnectionError });
  return openPglite(config.pgliteDataDir, { initialData: config.pgliteInitialData });
}
