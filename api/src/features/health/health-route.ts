/** `GET /api/health` → `{ status: 'ok' }` once the database answers; scripts wait on it. */
import { type App, type AppContext } from '../../app-context';
import { errorResponses, healthSchema } from '../../schemas/views';

export function registerHealth(app: App, { db }: AppContext): void {
  app.get('/api/health', { schema: { response: { 200: healthSchema, ...errorResponses } } }, async () => {
    await db.query('SELECT 1');
    return { status: 'ok' as const };
  });
}
