/** A redeem session with its gift, and its status as of now. */
import { type RedeemStatus, type RedeemView } from 'shared/api/contract';
import { maskEmail } from 'shared/api/email';
import { type Queryable } from '../../db/database';
import { visitorHash } from '../../http/visitor';
import { GIFT_COLUMNS, type GiftRow, toGiftView } from '../gifts/gift-view';

export interface RedeemRow extends GiftRow {
  redeem_id: string;
  redeem_status: 'open' | 'completed' | 'superseded';
  redeem_created_at: Date;
  redeem_expires_at: Date;
  completed_at: Date | null;
  email: string | null;
  voucher_code: string | null;
  visitor_hash: string | null;
  completed_visitor_hash: string | null;
  voucher_valid_until: Date | null;
  how_to_use: string;
  conditions: string;
  voucher_valid_days: number;
}

/** Whether the visitor opened or completed the session (the only ones shown its voucher). */
export function isSessionOwner(
  row: Pick<RedeemRow, 'visitor_hash' | 'completed_visitor_hash'>,
  visitorId: string | undefined,
): boolean {
  if (!visitorId) return false;
  const hash = visitorHash(visitorId);
  return row.visitor_hash === hash || row.completed_visitor_hash === hash;
}

/**
 * Completed and superseded are stored. A stored `open` session reads as expired past its own
 * expiry or its gift's, and as superseded once another session redeemed the gift.
 */
export function redeemStatus(row: RedeemRow, now: Date): RedeemStatus {
  if (row.redeem_status !== 'open') return row.redeem_status;
  if (row.redeem_expires_at.getTime() <= now.getTime()) return 'expired';
  if (row.gift_status === 'redeemed') return 'superseded';
  if (row.gift_expires_at.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

/** The session as `visitorId` may see it: the voucher and the email hint only for its owner. */
export function toRedeemView(row: RedeemRow, now: Date, visitorId: string | undefined): RedeemView {
  const completed = row.redeem_status === 'completed';
  const revealed = completed && isSessionOwner(row, visitorId);
  return {
    redeemId: row.redeem_id,
    status: redeemStatus(row, now),
    createdAt: row.redeem_created_at.toISOString(),
    expiresAt: row.redeem_expires_at.toISOString(),
    gift: toGiftView(row, now),
    completedAt: completed && row.completed_at ? row.completed_at.toISOString() : null,
    voucherCode: revealed ? row.voucher_code : null,
    emailHint: revealed && row.email ? maskEmail(row.email) : null,
    voucherTerms: { howToUse: row.how_to_use, conditions: row.conditions, validDays: row.voucher_valid_days },
    voucherValidUntil: revealed && row.voucher_valid_until ? row.voucher_valid_until.toISOString() : null,
  };
}

export async function findRedeem(db: Queryable, redeemId: string): Promise<RedeemRow | undefined> {
  const [row] = await db.query<RedeemRow>(
    `SELECT s.id AS redeem_id, s.status AS redeem_status, s.created_at AS redeem_created_at,
            s.expires_at AS redeem_expires_at, s.completed_at, s.email, s.voucher_code,
            s.visitor_hash, s.completed_visitor_hash, s.voucher_valid_until,
            ${GIFT_COLUMNS},
            p.how_to_use, p.conditions, p.voucher_valid_days
       FROM redeem_sessions s
       JOIN gifts g ON g.id = s.gift_id
       JOIN prizes p ON p.id = g.prize_id
      WHERE s.id = $1`,
    [redeemId],
  );
  return row;
}
