/**
 * `POST /api/gifts/:giftId/redeems`: this visitor's open redeem session of the gift (200), or a
 * new one (201). A session belongs to the browser that opened it (the `p_visitor` cookie, set
 * here when missing): another visitor holding the same gift link gets a session of their own, and
 * the first session to complete wins (the others become superseded). 429 past the address's
 * requests a minute (REDEEM_OPENS_PER_IP_PER_MINUTE) or the gift's open sessions
 * (REDEEM_SESSIONS_PER_GIFT; open-session.ts).
 */
import { openRedeemResultSchema } from 'shared/api/contract';
import { type App, type AppContext } from '../../app-context';
import { limitSubject } from '../../http/client-ip';
import { giftNotFound } from '../../http/errors';
import { visitorHash, visitorId } from '../../http/visitor';
import { consume } from '../../limits/rate-limit';
import { emptyBodySchema, giftParamsSchema } from '../../schemas/requests';
import { errorResponses } from '../../schemas/responses';
import { minuteWindow } from '../../time';
import { openSession } from './open-session';

export const TOO_MANY_OPENS_MESSAGE = 'Too many redeem requests from your network. Wait a minute and try again.';

export function registerOpenRedeem(app: App, { db, now, config }: AppContext): void {
  app.post(
    '/api/gifts/:giftId/redeems',
    {
      schema: {
        params: giftParamsSchema,
        body: emptyBodySchema,
        response: { 200: openRedeemResultSchema, 201: openRedeemResultSchema, ...errorResponses },
      },
      config: { notFoundMessage: giftNotFound().message },
    },
    async (request, reply) => {
      const at = now();
      // Counted before the gift is looked up: a request that ends in 404, 409 or 410 counts too,
      // so guessing gift ids here costs as much as opening sessions.
      await consume(
        db,
        {
          scope: 'redeem-open:ip',
          subject: limitSubject(request.ip),
          limit: config.limits.redeemOpensPerIpPerMinute,
          window: minuteWindow(at),
          message: TOO_MANY_OPENS_MESSAGE,
        },
        at,
      );
      const owner = visitorHash(visitorId(request, reply));
      const { giftId } = request.params;
      const result = await db.transaction((tx) => openSession(tx, { giftId, owner }, at, config));
      return reply.code(result.created ? 201 : 200).send({ redeemId: result.redeemId });
    },
  );
}
