/**
 * The backend API's contract: paths, shapes and statuses that the API serves and the remotes
 * call (PRODUCT.md, "Backend API"). Types only, plus the rules both sides check the same way.
 */

export type GiftStatus = 'available' | 'redeemed' | 'expired';
export type RedeemStatus = 'open' | 'completed' | 'expired' | 'superseded';

/** A prize's value: an amount of money, or a label for anything else ("Free coffee"). */
export type PrizeValue = { amount: number; currency: string } | { label: string };

export interface PrizeView {
  id: string;
  name: string;
  description: string;
  value: PrizeValue;
  /** An Iconify icon name, e.g. "mdi:gift". */
  icon: string;
}

export interface GiftView {
  giftId: string;
  prize: PrizeView;
  status: GiftStatus;
  /** ISO 8601 timestamps. */
  createdAt: string;
  expiresAt: string;
  redeemedAt: string | null;
}

/** `POST /api/game/plays` → 200. 429 once the visitor's or the address's plays are used up. */
export type PlayResult =
  | { outcome: 'win'; gift: GiftView; playsRemaining: number }
  | { outcome: 'lose'; playsRemaining: number; /** No prize has stock left: nobody can win. */ soldOut: boolean };

/** `POST /api/gifts/:giftId/redeems` → 201 (new) or 200 (the gift's current open session). */
export interface OpenRedeemResult {
  redeemId: string;
}

/** `GET /api/redeems/:redeemId` → 200. */
export interface RedeemView {
  redeemId: string;
  status: RedeemStatus;
  createdAt: string;
  expiresAt: string;
  gift: GiftView;
  /** Once completed, by this session. */
  completedAt: string | null;
  voucherCode: string | null;
  /** The address the voucher went to, masked ("j•••@example.com"). */
  emailHint: string | null;
}

/** `POST /api/redeems/:redeemId/complete` body. */
export interface CompleteRedeemBody {
  email: string;
  acceptTerms: boolean;
}

/** `POST /api/redeems/:redeemId/complete` → 200; repeating the same request gives the same answer. */
export interface CompleteRedeemResult {
  voucherCode: string;
  redeemedAt: string;
}

/** Every API error, whatever the route. */
export interface ApiErrorBody {
  statusCode: number;
  statusMessage: string;
  message: string;
}

export const API_PATHS = {
  plays: '/api/game/plays',
  gift: (giftId: string) => `/api/gifts/${encodeURIComponent(giftId)}`,
  giftRedeems: (giftId: string) => `/api/gifts/${encodeURIComponent(giftId)}/redeems`,
  redeem: (redeemId: string) => `/api/redeems/${encodeURIComponent(redeemId)}`,
  completeRedeem: (redeemId: string) => `/api/redeems/${encodeURIComponent(redeemId)}/complete`,
} as const;
