/**
 * The backend API's contract: paths, shapes and statuses that the API serves and the remotes
 * call (the endpoints are listed in api/README.md). Types only, plus the rules both sides check the same way.
 */

/** A voucher code: seven groups of four Crockford base32 characters (no I, L, O or U), unanchored. */
export const VOUCHER_CODE_SOURCE = '[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){6}';
export const VOUCHER_CODE_PATTERN = new RegExp(`^${VOUCHER_CODE_SOURCE}$`);
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

/**
 * `POST /api/game/plays` → 200. 429 once the visitor's or the address's plays are used up.
 * Sent with an `Idempotency-Key` header (16 to 64 characters of [A-Za-z0-9_-]), the same key from
 * the same visitor gets the first answer again and spends nothing more.
 */
export type PlayResult =
  | { outcome: 'win'; gift: GiftView; playsRemaining: number; playsResetAt: string }
  | {
      outcome: 'lose';
      playsRemaining: number;
      /** When today's plays come back (the next UTC midnight). */
      playsResetAt: string;
      /** No prize has stock left: nobody can win. */
      soldOut: boolean;
    };

/** The header a play's idempotency key travels in, and the key's shape. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** A gift this browser won or redeemed, as `GET /api/visitor/gifts` lists it. */
export interface VisitorGift extends GiftView {
  /** The redeem session this browser completed for the gift, where its voucher is shown; null if none. */
  redeemId: string | null;
}

/**
 * `GET /api/visitor/gifts` → 200: the gifts of the browser's visitor cookie (sets one when it has
 * none), newest first, at most VISITOR_GIFTS_LIMIT.
 */
export interface VisitorGifts {
  gifts: VisitorGift[];
}

export const VISITOR_GIFTS_LIMIT = 50;

/**
 * `POST /api/gifts/:giftId/redeems` → 201 (new) or 200 (this visitor's open session of the gift).
 * A session belongs to the browser that opened it (the `p_visitor` cookie, sent with credentials).
 */
export interface OpenRedeemResult {
  redeemId: string;
}

/** How a prize's voucher is used: the same for every voucher of the prize. */
export interface VoucherTerms {
  /** Where and how to use the voucher. */
  howToUse: string;
  /** The prize's conditions ("Not exchangeable for cash."). */
  conditions: string;
  /** A voucher can be used for this many days after the gift is redeemed. */
  validDays: number;
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
  /**
   * Once completed, and only for the visitor (browser) who opened or completed the session;
   * null for anyone else. Seven groups of four: XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX.
   */
  voucherCode: string | null;
  /** The address the voucher went to, masked ("j•••@example.com"); shown like `voucherCode`. */
  emailHint: string | null;
  voucherTerms: VoucherTerms;
  /** Until when the voucher can be used (ISO 8601); shown like `voucherCode`. */
  voucherValidUntil: string | null;
}

/** `POST /api/redeems/:redeemId/complete` body. */
export interface CompleteRedeemBody {
  email: string;
  acceptTerms: boolean;
}

/** `POST /api/redeems/:redeemId/complete` → 200; the same request again, from the same visitor, gives the same answer. */
export interface CompleteRedeemResult {
  voucherCode: string;
  redeemedAt: string;
  /** Until when the voucher can be used (ISO 8601). */
  voucherValidUntil: string;
}

/** Every API error, whatever the route. */
export interface ApiErrorBody {
  statusCode: number;
  statusMessage: string;
  message: string;
}

export const API_PATHS = {
  plays: '/api/game/plays',
  visitorGifts: '/api/visitor/gifts',
  gift: (giftId: string) => `/api/gifts/${encodeURIComponent(giftId)}`,
  giftRedeems: (giftId: string) => `/api/gifts/${encodeURIComponent(giftId)}/redeems`,
  redeem: (redeemId: string) => `/api/redeems/${encodeURIComponent(redeemId)}`,
  completeRedeem: (redeemId: string) => `/api/redeems/${encodeURIComponent(redeemId)}/complete`,
} as const;
