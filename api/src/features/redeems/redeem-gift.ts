/**
 * Completes a redeem session: gift `available → redeemed` and session `open → completed` in one
 * transaction. Locks go gift first, then session, so concurrent completions queue on the gift row
 * (no deadlock) and the conditional UPDATE lets exactly one through.
 */
import { type CompleteRedeemResult } from 'shared/api/contract';
import { newVoucherCode } from '../../codes';
import { type Database, type Queryable } from '../../db/database';
import { giftAlreadyRedeemed, giftExpired, HttpError, redeemNotFound } from '../../http/errors';
import { announceGiftChange } from '../gifts/gift-cache';

interface LockedSession {
  [column: string]: unknown;
  status: 'open' | 'completed' | 'superseded';
  expires_at: Date;
  email: string | null;
  voucher_code: string | null;
  visitor_hash: string | null;
  completed_visitor_hash: string | null;
  voucher_valid_until: Date | null;
}

export interface Completion {
  redeemId: string;
  email: string;
  visitorHash: string;
}

interface LockedGift {
  [column: string]: unknown;
  status: string;
  expires_at: Date;
  redeemed_at: Date | null;
  voucher_valid_days: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A voucher issued `at` can be used for its prize's number of days. */
export function voucherValidUntil(at: Date, validDays: number): Date {
  return new Date(at.getTime() + validDays * DAY_MS);
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** `onRedeemed` hears the gift's id once the redemption has committed (this process's cache). */
export async function redeemGift(
  db: Database,
  completion: Completion,
  now: Date,
  onRedeemed: (giftId: string) => void = () => undefined,
): Promise<CompleteRedeemResult> {
  let redeemedGift: string | undefined;
  const result = await db.transaction(async (tx) => {
    const { giftId, gift, locked } = await lockGiftThenSession(tx, completion.redeemId);
    if (locked.status === 'completed') return repeatCompletion(locked, gift, completion);
    if (locked.status === 'superseded' || gift.status === 'redeemed') throw giftAlreadyRedeemed();
    if (locked.expires_at.getTime() <= now.getTime()) {
      throw new HttpError(410, 'This redeem session has expired. Open the gift again to start a new one.');
    }
    const [redeemed] = await tx.query<{ redeemed_at: Date }>(
      `UPDATE gifts SET status = 'redeemed', redeemed_at = $2::timestamptz
        WHERE id = $1 AND status = 'available' AND expires_at > $2::timestamptz
        RETURNING redeemed_at`,
      [giftId, now],
    );
    if (!redeemed) throw gift.expires_at.getTime() <= now.getTime() ? giftExpired() : giftAlreadyRedeemed();
    // Every process forgets its cached copy of the gift once this commits.
    await announceGiftChange(tx, giftId);
    redeemedGift = giftId;
    const validUntil = voucherValidUntil(now, gift.voucher_valid_days);
    const voucherCode = await completeSession(tx, giftId, completion, now, validUntil);
    return {
      voucherCode,
      redeemedAt: redeemed.redeemed_at.toISOString(),
      voucherValidUntil: validUntil.toISOString(),
    };
  });
  if (redeemedGift) onRedeemed(redeemedGift);
  return result;
}

async function lockGiftThenSession(
  tx: Queryable,
  redeemId: string,
): Promise<{ giftId: string; gift: LockedGift; locked: LockedSession }> {
  const [session] = await tx.query<{ gift_id: string }>('SELECT gift_id FROM redeem_sessions WHERE id = $1', [
    redeemId,
  ]);
  if (!session) throw redeemNotFound();
  const [gift] = await tx.query<LockedGift>(
    `SELECT g.status, g.expires_at, g.redeemed_at, p.voucher_valid_days
       FROM gifts g JOIN prizes p ON p.id = g.prize_id
      WHERE g.id = $1 FOR UPDATE OF g`,
    [session.gift_id],
  );
  const [locked] = await tx.query<LockedSession>(
    `SELECT status, expires_at, email, voucher_code, visitor_hash, completed_visitor_hash, voucher_valid_until
       FROM redeem_sessions WHERE id = $1 FOR UPDATE`,
    [redeemId],
  );
  if (!gift || !locked) throw redeemNotFound();
  return { giftId: session.gift_id, gift, locked };
}

/** The same visitor with the same email gets the same answer; anyone else learns nothing of the voucher. */
function repeatCompletion(locked: LockedSession, gift: LockedGift, { email, visitorHash }: Completion) {
  const owner = locked.visitor_hash === visitorHash || locked.completed_visitor_hash === visitorHash;
  if (!owner) throw giftAlreadyRedeemed();
  if (
    locked.email &&
    locked.voucher_code &&
    locked.voucher_valid_until &&
    gift.redeemed_at &&
    sameEmail(locked.email, email)
  ) {
    return {
      voucherCode: locked.voucher_code,
      redeemedAt: gift.redeemed_at.toISOString(),
      voucherValidUntil: locked.voucher_valid_until.toISOString(),
    };
  }
  throw new HttpError(409, 'This gift has already been redeemed with another email address.');
}

/** Completes this session with a new voucher and supersedes the gift's other open sessions. */
async function completeSession(
  tx: Queryable,
  giftId: string,
  { redeemId, email, visitorHash }: Completion,
  now: Date,
  validUntil: Date,
): Promise<string> {
  const voucherCode = newVoucherCode();
  const [completed] = await tx.query(
    `UPDATE redeem_sessions
        SET status = 'completed', completed_at = $2::timestamptz, email = $3, voucher_code = $4,
            completed_visitor_hash = $5, voucher_valid_until = $6::timestamptz
      WHERE id = $1 AND status = 'open'
      RETURNING id`,
    [redeemId, now, email, voucherCode, visitorHash, validUntil],
  );
  // Cannot happen while the row is locked; if it ever does, throwing rolls the gift back too.
  if (!completed) throw giftAlreadyRedeemed();
  await tx.query(
    `UPDATE redeem_sessions SET status = 'superseded'
      WHERE gift_id = $1 AND id <> $2 AND status = 'open' AND expires_at > $3::timestamptz`,
    [giftId, redeemId, now],
  );
  return voucherCode;
}
