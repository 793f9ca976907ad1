/** `POST /api/gifts/:giftId/redeems`: this visitor's open session (200) or a new one (201); the first completion wins. */
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
      // Before the lookup: guessing gift ids costs as much as opening sessions.
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
