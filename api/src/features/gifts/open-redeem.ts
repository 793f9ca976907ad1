/**
 * `POST /api/gifts/:giftId/redeems`: this visitor's open redeem session of the gift (200), or a
 * new one (201). A session belongs to the browser that opened it (the `p_visitor` cookie, set
 * here when missing): another visitor holding the same gift link gets a session of their own, and
 * the first session to complete wins (the others become superseded). The gift row is locked
 * first, so concurrent requests of one visitor agree on one open session.
 */
import { openRedeemResultSchema } from 'shared/api/contract';
import { type App, type AppContext } from '../../app-context';
import { newId } from '../../codes';
import { giftAlreadyRedeemed, giftExpired, giftNotFound } from '../../http/errors';
import { visitorHash, visitorId } from '../../http/visitor';
import { emptyBodySchema, giftParamsSchema } from '../../schemas/requests';
import { errorResponses } from '../../schemas/responses';
import { addMinutes } from '../../time';
import { giftStatus, type GiftRow } from './gift-view';

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
      const { giftId } = request.params;
      const owner = visitorHash(visitorId(request, reply));
      const at = now();
      const result = await db.transaction(async (tx) => {
        const [gift] = await tx.query<Pick<GiftRow, 'gift_status' | 'gift_expires_at'>>(
          'SELECT status AS gift_status, expires_at AS gift_expires_at FROM gifts WHERE id = $1 FOR UPDATE',
          [giftId],
        );
        if (!gift) throw giftNotFound();
        const status = giftStatus(gift, at);
        if (status === 'redeemed') throw giftAlreadyRedeemed();
        if (status === 'expired') throw giftExpired();
        const [open] = await tx.query<{ id: string }>(
          `SELECT id FROM redeem_sessions
            WHERE gift_id = $1 AND visitor_hash = $2 AND status = 'open' AND expires_at > $3::timestamptz
            ORDER BY created_at DESC LIMIT 1`,
          [giftId, owner, at],
        );
        if (open) return { redeemId: open.id, created: false };
        const redeemId = newId();
        await tx.query(
          `INSERT INTO redeem_sessions (id, gift_id, status, created_at, expires_at, visitor_hash)
           VALUES ($1, $2, 'open', $3::timestamptz, $4::timestamptz, $5)`,
          [redeemId, giftId, at, addMinutes(at, config.redeemSessionTtlMinutes), owner],
        );
        return { redeemId, created: true };
      });
      return reply.code(result.created ? 201 : 200).send({ redeemId: result.redeemId });
    },
  );
}
