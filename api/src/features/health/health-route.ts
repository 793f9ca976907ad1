/** `live` never looks at the database (restarts); `ready` (and `/api/health`) also needs migrations applied and no shutdown. */
import { type App, type AppContext } from '../../app-context';
import { DatabaseUnavailableError } from '../../db/database';
import { pendingMigrations } from '../../db/migrate';
import { HttpError } from '../../http/errors';
import { errorResponses, healthSchema } from '../../schemas/responses';

const schema = { response: { 200: healthSchema, ...errorResponses } };
const ok = { status: 'ok' as const };

export function registerHealth(app: App, { db, lifecycle }: AppContext): void {
  const ready = async () => {
    if (lifecycle.stopping) throw new HttpError(503, 'Not ready: shutting down.');
    let pending: string[];
    try {
      pending = await pendingMigrations(db);
    } catch (error) {
      if (error instanceof DatabaseUnavailableError)
        throw new HttpError(503, 'Not ready: the database is unavailable.');
      throw error;
    }
    if (pending.length > 0)
      throw new HttpError(503, `Not ready: database migrations not applied yet (${pending.join(', ')}).`);
    return ok;
  };
  app.get('/api/health/live', { schema }, async () => ok);
  app.get('/api/health/ready', { schema }, ready);
  app.get('/api/health', { schema }, ready);
}
