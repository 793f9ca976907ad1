/** A gift row with its prize, read the same way everywhere, and its status as of now. */
import { type GiftStatus, type GiftView, type PrizeValue } from 'shared/api/contract';
import { type Queryable } from '../../db/database';

export interface GiftRow {
  [column: string]: unknown;
  gift_id: string;
  gift_status: 'available' | 'redeemed';
  gift_created_at: Date;
  gift_expires_at: Date;
  redeemed_at: Date | null;
  prize_id: string;
  prize_name: string;
  prize_description: string;
  prize_value: PrizeValue;
  prize_icon: string;
}

/** Stored `available` past its expiry reads as `expired`. */
export function giftStatus(row: Pick<GiftRow, 'gift_status' | 'gift_expires_at'>, now: Date): GiftStatus {
  if (row.gift_status === 'redeemed') return 'redeemed';
  return row.gift_expires_at.getTime() > now.getTime() ? 'available' : 'expired';
}

export function toGiftView(row: GiftRow, now: Date): GiftView {
  return {
    giftId: row.gift_id,
    prize: {
      id: row.prize_id,
      name: row.prize_name,
      description: row.prize_description,
      value: row.prize_value,
      icon: row.prize_icon,
    },
    status: giftStatus(row, now),
    createdAt: row.gift_created_at.toISOString(),
    expiresAt: row.gift_expires_at.toISOString(),
    redeemedAt: row.redeemed_at ? row.redeemed_at.toISOString() : null,
  };
}

/** The columns of a GiftRow, from `gifts g JOIN prizes p`. */
export const GIFT_COLUMNS = `g.id AS gift_id, g.status AS gift_status, g.created_at AS gift_created_at,
  g.expires_at AS gift_expires_at, g.redeemed_at,
  p.id AS prize_id, p.name AS prize_name, p.description AS prize_description,
  p.value AS prize_value, p.icon AS prize_icon`;

export async function findGift(db: Queryable, giftId: string): Promise<GiftRow | undefined> {
  const [row] = await db.query<GiftRow>(
    `SELECT ${GIFT_COLUMNS}
       FROM gifts g JOIN prizes p ON p.id = g.prize_id
      WHERE g.id = $1`,
    [giftId],
  );
  return row;
}
