/**
 * The contract's plain values: its paths, the play's header, the formats of a play's key and of
 * a voucher code. Apart from the schemas (contract.ts, which re-exports these), so that browser
 * code reading them at run time brings no zod into the page: the browser takes the contract's
 * types only (client.ts says why).
 */

/** A voucher code: seven groups of four Crockford base32 characters (no I, L, O or U), unanchored. */
export const VOUCHER_CODE_SOURCE = '[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){6}';
export const VOUCHER_CODE_PATTERN = new RegExp(`^${VOUCHER_CODE_SOURCE}$`);

/** The header a play's idempotency key travels in, and the key's shape. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** The most gifts `GET /api/visitor/gifts` lists. */
export const VISITOR_GIFTS_LIMIT = 50;

export const API_PATHS = {
  plays: '/api/game/plays',
  visitorGifts: '/api/visitor/gifts',
  gift: (giftId: string) => `/api/gifts/${encodeURIComponent(giftId)}`,
  giftRedeems: (giftId: string) => `/api/gifts/${encodeURIComponent(giftId)}/redeems`,
  redeem: (redeemId: string) => `/api/redeems/${encodeURIComponent(redeemId)}`,
  completeRedeem: (redeemId: string) => `/api/redeems/${encodeURIComponent(redeemId)}/complete`,
} as const;
