/** `POST /api/redeems/:redeemId/complete`: whoever holds the session id may complete it. */
import { completeRedeemBodySchema, completeRedeemResultSchema } from 'shared/api/contract';
import { checkEmail } from 'shared/api/email';
import { type App, type AppContext } from '../../app-context';
import { limitSubject } from '../../http/client-ip';
import { HttpError, redeemNotFound } from '../../http/errors';
import { visitorHash, visitorId } from '../../http/visitor';
import { consume } from '../../limits/rate-limit';
import { redeemParamsSchema } from '../../schemas/requests';
import { errorResponses } from '../../schemas/responses';
import { minuteWindow } from '../../time';
import { redeemGift } from './redeem-gift';

export function registerCompleteRedeem(app: App, { db, now, config, gifts, metrics }: AppContext): void {
  app.post(
    '/api/redeems/:redeemId/complete',
    {
      schema: {
        params: redeemParamsSchema,
        body: completeRedeemBodySchema,
        response: { 200: completeRedeemResultSchema, ...errorResponses },
      },
      config: { notFoundMessage: redeemNotFound().message },
    },
    async (request, reply) => {
      const email = checkEmail(request.body.email);
      if (!email.ok) throw new HttpError(400, email.message);
      if (!request.body.acceptTerms) throw new HttpError(400, 'Accept the terms to redeem this gift.');
      const at = now();
      // Counted outside the transaction: an attempt that ends in 404 or 409 still counts.
      await consume(
        db,
        {
          scope: 'redeem:ip',
          subject: limitSubject(request.ip),
          limit: config.limits.redeemAttemptsPerIpPerMinute,
          window: minuteWindow(at),
          message: 'Too many redeem attempts. Wait a minute and try again.',
        },
        at,
      );
      // So the completing browser sees its voucher again after a reload.
      const completer = visitorHash(visitorId(request, reply));
      return redeemGift(
        db,
        { redeemId: request.params.redeemId, email: email.email, visitorHash: completer },
        at,
        (giftId) => {
          gifts.forget(giftId);
          metrics.redeemsCompleted.inc();
        },
      );
    },
  );
}
