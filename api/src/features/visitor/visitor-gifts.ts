/** `GET /api/visitor/gifts` sets the cookie when missing, so a lost first play can be repeated as the same visitor. */
import { VISITOR_GIFTS_LIMIT, type VisitorGift, visitorGiftsSchema } from 'shared/api/contract';
import { type App, type AppContext } from '../../app-context';
import { type Queryable } from '../../db/database';
import { visitorHash, visitorId } from '../../http/visitor';
import { errorResponses } from '../../schemas/responses';
import { GIFT_COLUMNS, type GiftRow, toGiftView } from '../gifts/gift-view';

interface VisitorGiftRow extends GiftRow {
  redeem_id: string | null;
}

export async function visitorGifts(db: Queryable, visitorId: string, now: Date): Promise<VisitorGift[]> {
  const rows = await db.query<VisitorGiftRow>(
    `SELECT ${GIFT_COLUMNS},
            (SELECT r.id FROM redeem_sessions r
              WHERE r.gift_id = g.id AND r.status = 'completed'
                AND (r.completed_visitor_hash = $1 OR r.visitor_hash = $1)) AS redeem_id
       FROM gifts g JOIN prizes p ON p.id = g.prize_id
      WHERE g.visitor_hash = $1
         OR g.id IN (SELECT r.gift_id FROM redeem_sessions r WHERE r.status = 'completed' AND r.completed_visitor_hash = $1)
      ORDER BY g.created_at DESC, g.id
      LIMIT $2::int`,
    [visitorHash(visitorId), VISITOR_GIFTS_LIMIT],
  );
  return rows.map((row) => ({ ...toGiftView(row, now), redeemId: row.redeem_id }));
}

export function registerVisitorGifts(app: App, { db, now }: AppContext): void {
  app.get(
    '/api/visitor/gifts',
    { schema: { response: { 200: visitorGiftsSchema, ...errorResponses } } },
    async (request, reply) => ({ gifts: await visitorGifts(db, visitorId(request, reply), now()) }),
  );
}
