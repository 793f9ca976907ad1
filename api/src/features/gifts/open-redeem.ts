/**
 * `POST /api/gifts/:giftId/redeems`: the gift's current open redeem session (200), or a new one
 * (201). The gift row is locked first, so concurrent requests agree on one open session.
 */
import { type App, type AppContext } from '../../app-context';
import { newId } from '../../codes';
import { giftAlreadyRedeemed, giftExpired, giftNotFound } from '../../http/errors';
import { emptyBodySchema, giftParamsSchema } from '../../schemas/requests';
import { errorResponses, openRedeemResultSchema } from '../../schemas/views';
import { addMinutes } from '../../time';
import { giftStatus, type GiftRow } from './gift-view';

export function registerOpenRedeem(app: App, { db, now, config }: AppContext): void {
  app.post(
    '/api/gifts/:giftId/redeems',
    {
      schema: { params: giftParamsSchema, body: emptyBodySchema, response: { 200: openRedeemResultSchema, 201: openRedeemResultSchema, ...errorResponses } },
      config: { notFoundMessage: giftNotFound().message },
    },
    async (request, reply) => {
      const { giftId } = request.params;
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
            WHERE gift_id = $1 AND status = 'open' AND expires_at > $2::timestamptz
            ORDER BY created_at DESC LIMIT 1`,
          [giftId, at],
        );
        if (open) return { redeemId: open.id, created: false };
        const redeemId = newId();
        await tx.query(
          `INSERT INTO redeem_sessions (id, gift_id, status, created_at, expires_at)
           VALUES ($1, $2, 'open', $3::timestamptz, $4::timestamptz)`,
          [redeemId, giftId, at, addMinutes(at, config.redeemSessionTtlMinutes)],
        );
        return { redeemId, created: true };
      });
      return reply.code(result.created ? 201 : 200).send({ redeemId: result.redeemId });
    },
  );
}
