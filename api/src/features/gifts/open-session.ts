/**
 * Opens a redeem session under the gift's row lock: the visitor's own open one, or a new one
 * below the limit. A visitor is only a cookie, so without the limit one link makes any number.
 */
import { type AppConfig } from '../../config';
import { newId } from '../../codes';
import { type Queryable } from '../../db/database';
import { giftAlreadyRedeemed, giftExpired, giftNotFound, TooManyRequestsError } from '../../http/errors';
import { addMinutes, secondsUntil } from '../../time';
import { giftStatus, type GiftRow } from './gift-view';

export const TOO_MANY_SESSIONS_MESSAGE =
  'This gift is being redeemed in too many other browsers right now. Try again in a few minutes.';

export interface OpenedSession {
  redeemId: string;
  created: boolean;
}

/** `owner`: the visitor's hash (`visitorHash`). Must run inside a transaction. */
export async function openSession(
  tx: Queryable,
  { giftId, owner }: { giftId: string; owner: string },
  at: Date,
  config: Pick<AppConfig, 'redeemSessionTtlMinutes' | 'limits'>,
): Promise<OpenedSession> {
  const [gift] = await tx.query<Pick<GiftRow, 'gift_status' | 'gift_expires_at'>>(
    'SELECT status AS gift_status, expires_at AS gift_expires_at FROM gifts WHERE id = $1 FOR UPDATE',
    [giftId],
  );
  if (!gift) throw giftNotFound();
  const status = giftStatus(gift, at);
  if (status === 'redeemed') throw giftAlreadyRedeemed();
  if (status === 'expired') throw giftExpired();
  const [own] = await tx.query<{ id: string }>(
    `SELECT id FROM redeem_sessions
      WHERE gift_id = $1 AND visitor_hash = $2 AND status = 'open' AND expires_at > $3::timestamptz
      ORDER BY created_at DESC LIMIT 1`,
    [giftId, owner, at],
  );
  if (own) return { redeemId: own.id, created: false };
  await checkRoomForAnother(tx, giftId, at, config.limits.redeemSessionsPerGift);
  const redeemId = newId();
  await tx.query(
    `INSERT INTO redeem_sessions (id, gift_id, status, created_at, expires_at, visitor_hash)
     VALUES ($1, $2, 'open', $3::timestamptz, $4::timestamptz, $5)`,
    [redeemId, giftId, at, addMinutes(at, config.redeemSessionTtlMinutes), owner],
  );
  return { redeemId, created: true };
}

/** 429 once the gift has `limit` open sessions; Retry-After: until the first of them expires. */
async function checkRoomForAnother(tx: Queryable, giftId: string, at: Date, limit: number): Promise<void> {
  const [open] = await tx.query<{ count: number; first_expiry: Date | null }>(
    `SELECT count(*)::int AS count, min(expires_at) AS first_expiry FROM redeem_sessions
      WHERE gift_id = $1 AND status = 'open' AND expires_at > $2::timestamptz`,
    [giftId, at],
  );
  if (open && open.count >= limit && open.first_expiry)
    throw new TooManyRequestsError(TOO_MANY_SESSIONS_MESSAGE, secondsUntil(open.first_expiry, at));
}
