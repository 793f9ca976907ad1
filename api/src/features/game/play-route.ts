/** `POST /api/game/plays` → PlayResult; 429 once the visitor's or the address's plays are used up. */
import { type App, type AppContext } from '../../app-context';
import { limitSubject } from '../../http/client-ip';
import { visitorId } from '../../http/visitor';
import { emptyBodySchema } from '../../schemas/requests';
import { errorResponses, playResultSchema } from '../../schemas/views';
import { play } from './play';

export function registerPlay(app: App, { db, config, now }: AppContext): void {
  app.post(
    '/api/game/plays',
    { schema: { body: emptyBodySchema, response: { 200: playResultSchema, ...errorResponses } } },
    async (request, reply) =>
      play(db, config, { visitorId: visitorId(request, reply), ip: limitSubject(request.ip) }, now()),
  );
}
