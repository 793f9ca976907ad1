/** The contract's plain values, apart from the schemas so browser code brings no zod. */

/** Crockford base32 (no I, L, O or U), unanchored. */
export const VOUCHER_CODE_SOURCE = '[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){6}';
export const VOUCHER_CODE_PATTERN = new RegExp(`^${VOUCHER_CODE_SOURCE}$`);

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export const VISITOR_GIFTS_LIMIT = 50;

export const API_PATHS = {
  plays: '/api/game/plays',
  visitorGifts: '/api/visitor/gifts',
  gift: (giftId: string) => `/api/gifts/${encodeURIComponent(giftId)}`,
  giftRedeems: (giftId: string) => `/api/gifts/${encodeURIComponent(giftId)}/redeems`,
  redeem: (redeemId: string) => `/api/redeems/${encodeURIComponent(redeemId)}`,
  completeRedeem: (redeemId: string) => `/api/redeems/${encodeURIComponent(redeemId)}/complete`,
} as const;
