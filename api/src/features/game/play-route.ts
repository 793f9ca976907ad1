/**
 * `POST /api/game/plays` → PlayResult; 429 once the visitor's or the address's plays are used up.
 * An `Idempotency-Key` header makes the play repeatable (play.ts).
 */
import { IDEMPOTENCY_KEY_HEADER, playResultSchema } from 'shared/api/contract';
import { type App, type AppContext } from '../../app-context';
import { limitSubject } from '../../http/client-ip';
import { visitorId } from '../../http/visitor';
import { emptyBodySchema, playHeadersSchema } from '../../schemas/requests';
import { errorResponses } from '../../schemas/responses';
import { play } from './play';

export function registerPlay(app: App, { db, config, now, metrics }: AppContext): void {
  app.post(
    '/api/game/plays',
    {
      schema: {
        headers: playHeadersSchema,
        body: emptyBodySchema,
        response: { 200: playResultSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      play(
        db,
        config,
        {
          visitorId: visitorId(request, reply),
          ip: limitSubject(request.ip),
          idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
        },
        now(),
        (result) => metrics.plays.inc({ outcome: result.outcome }),
      ),
  );
}
