/**
 * The backend API's contract: paths, shapes and statuses that the API serves and the remotes
 * call (api/README.md describes every endpoint). Each shape is one zod schema, which the API
 * validates requests and writes answers with; its type, inferred from it, is what the API and
 * the browser's code use. Browser code imports only the types from here (`import type`, kept so
 * by a lint rule) and the plain values from contract-values.ts: the schemas stay out of the
 * pages (client.ts says why). zod/mini, as the runtime configuration: should a page ever need a
 * schema, it takes only the parts of zod it calls, not all of classic zod.
 */
import * as z from 'zod/mini';
import { PUBLISHED_ROUTES_LIMITS } from '../published-routes';
import { LOAD_OUTCOMES, LOAD_PHASES, MAX_TICKET_LENGTH, TELEMETRY_MAX_EVENTS, VITAL_NAMES } from '../telemetry';

export {
  API_PATHS,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  VISITOR_GIFTS_LIMIT,
  VOUCHER_CODE_PATTERN,
  VOUCHER_CODE_SOURCE,
} from './contract-values';

/** ISO 8601, in UTC (`toISOString()`). */
const timestamp = z.iso.datetime();
const count = z.int().check(z.minimum(0));

export const giftStatusSchema = z.enum(['available', 'redeemed', 'expired']);
export type GiftStatus = z.infer<typeof giftStatusSchema>;

export const redeemStatusSchema = z.enum(['open', 'completed', 'expired', 'superseded']);
export type RedeemStatus = z.infer<typeof redeemStatusSchema>;

/** A prize's value: an amount of money, or a label for anything else ("Free coffee"). */
export const prizeValueSchema = z.union([
  z.object({ amount: z.number(), currency: z.string() }),
  z.object({ label: z.string() }),
]);
export type PrizeValue = z.infer<typeof prizeValueSchema>;

export const prizeViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  value: prizeValueSchema,
  /** An Iconify icon name, e.g. "mdi:gift". */
  icon: z.string(),
});
export type PrizeView = z.infer<typeof prizeViewSchema>;

/** `GET /api/gifts/:giftId` → 200 (an expired gift too, so the page can show it); 404 when unknown. */
export const giftViewSchema = z.object({
  giftId: z.string(),
  prize: prizeViewSchema,
  status: giftStatusSchema,
  createdAt: timestamp,
  expiresAt: timestamp,
  redeemedAt: z.nullable(timestamp),
});
export type GiftView = z.infer<typeof giftViewSchema>;

/**
 * `POST /api/game/plays` → 200. 429 once the visitor's or the address's plays are used up.
 * Sent with an `Idempotency-Key` header (16 to 64 characters of [A-Za-z0-9_-]), the same key from
 * the same visitor gets the first answer again and spends nothing more.
 */
export const playResultSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('win'),
    gift: giftViewSchema,
    playsRemaining: count,
    playsResetAt: timestamp,
  }),
  z.object({
    outcome: z.literal('lose'),
    playsRemaining: count,
    /** When today's plays come back (the next UTC midnight). */
    playsResetAt: timestamp,
    /** No prize has stock left: nobody can win. */
    soldOut: z.boolean(),
  }),
]);
export type PlayResult = z.infer<typeof playResultSchema>;

/** A gift this browser won or redeemed, as `GET /api/visitor/gifts` lists it. */
export const visitorGiftSchema = z.extend(giftViewSchema, {
  /** The redeem session this browser completed for the gift, where its voucher is shown; null if none. */
  redeemId: z.nullable(z.string()),
});
export type VisitorGift = z.infer<typeof visitorGiftSchema>;

/**
 * `GET /api/visitor/gifts` → 200: the gifts of the browser's visitor cookie (sets one when it has
 * none), newest first, at most VISITOR_GIFTS_LIMIT.
 */
export const visitorGiftsSchema = z.object({ gifts: z.array(visitorGiftSchema) });
export type VisitorGifts = z.infer<typeof visitorGiftsSchema>;

/**
 * `POST /api/gifts/:giftId/redeems` → 201 (new) or 200 (this visitor's open session of the gift).
 * A session belongs to the browser that opened it (the `p_visitor` cookie, sent with credentials).
 * 429 with Retry-After past the address's requests a minute, or while the gift has as many open
 * sessions of other visitors as it may have.
 */
export const openRedeemResultSchema = z.object({ redeemId: z.string() });
export type OpenRedeemResult = z.infer<typeof openRedeemResultSchema>;

/** How a prize's voucher is used: the same for every voucher of the prize. */
export const voucherTermsSchema = z.object({
  /** Where and how to use the voucher. */
  howToUse: z.string(),
  /** The prize's conditions ("Not exchangeable for cash."). */
  conditions: z.string(),
  /** A voucher can be used for this many days after the gift is redeemed. */
  validDays: z.int(),
});
export type VoucherTerms = z.infer<typeof voucherTermsSchema>;

/** `GET /api/redeems/:redeemId` → 200; 404 when unknown; 429 once an address has asked for too many unknown ids. */
export const redeemViewSchema = z.object({
  redeemId: z.string(),
  status: redeemStatusSchema,
  createdAt: timestamp,
  expiresAt: timestamp,
  gift: giftViewSchema,
  /** Once completed, by this session. */
  completedAt: z.nullable(timestamp),
  /**
   * Once completed, and only for the visitor (browser) who opened or completed the session;
   * null for anyone else. Seven groups of four: XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX.
   */
  voucherCode: z.nullable(z.string()),
  /** The address the voucher went to, masked ("j•••@example.com"); shown like `voucherCode`. */
  emailHint: z.nullable(z.string()),
  voucherTerms: voucherTermsSchema,
  /** Until when the voucher can be used (ISO 8601); shown like `voucherCode`. */
  voucherValidUntil: z.nullable(timestamp),
});
export type RedeemView = z.infer<typeof redeemViewSchema>;

/**
 * `POST /api/redeems/:redeemId/complete` body: strict, an unknown field is a 400. The fields' types
 * and a generous cap only: the email rule (email.ts) and the terms are the API handler's to
 * check, with the form's messages.
 */
export const completeRedeemBodySchema = z.strictObject({
  email: z.string().check(z.maxLength(1024)),
  acceptTerms: z.boolean(),
});
export type CompleteRedeemBody = z.infer<typeof completeRedeemBodySchema>;

/** `POST /api/redeems/:redeemId/complete` → 200; the same request again, from the same visitor, gives the same answer. */
export const completeRedeemResultSchema = z.object({
  voucherCode: z.string(),
  redeemedAt: timestamp,
  /** Until when the voucher can be used (ISO 8601). */
  voucherValidUntil: timestamp,
});
export type CompleteRedeemResult = z.infer<typeof completeRedeemResultSchema>;

/** Every API error, whatever the route. */
export const apiErrorBodySchema = z.object({
  statusCode: z.int().check(z.minimum(400), z.maximum(599)),
  statusMessage: z.string(),
  message: z.string(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/**
 * `POST /api/telemetry` (a `text/plain` or `application/json` body of JSON, as
 * `navigator.sendBeacon` sends it) → 204. Shapes and bounds only: the API then labels each value
 * from a set of known size (telemetry-labels.ts): a build its part's deployment does not name, a
 * route or a remote it does not know, a route with a remote that does not own it, a directive or
 * a blocked origin outside the known sets as `other`, a status other than 404, 429, 500 and 503
 * as its class. A route or a remote is a bounded string here, not the compiled registry's list:
 * a page that shows a remote the API was built without still has its batch counted.
 * 400 for anything else, 413 over TELEMETRY_MAX_BYTES, 429 past the client's limit.
 */
const telemetryToken = z.string().check(z.maxLength(128), z.regex(/^[A-Za-z0-9._:/-]*$/));
/** A part's name (a remote's or the host's), as `npm run new-remote` takes it. */
const part = z.string().check(z.maxLength(64), z.regex(/^[a-z][a-z0-9-]*$/));
/** A route pattern as the host's router spells it (`/gifts/:giftId`), or the not-found route `*`. */
const route = z.string().check(z.maxLength(PUBLISHED_ROUTES_LIMITS.pathLength), z.regex(/^(\*|\/[A-Za-z0-9._~:/-]*)$/));
const millis = z.number().check(z.minimum(0), z.maximum(10 * 60_000));

export const telemetryEventSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('load'),
    remote: part,
    build: telemetryToken,
    phase: z.enum(LOAD_PHASES),
    outcome: z.enum(LOAD_OUTCOMES),
    ms: millis,
  }),
  z.strictObject({ kind: z.literal('reload'), route, remote: part, build: telemetryToken }),
  z.strictObject({
    kind: z.literal('error-page'),
    route,
    status: z.int().check(z.minimum(400), z.maximum(599)),
    remote: part,
    build: z.optional(telemetryToken),
  }),
  z.strictObject({
    kind: z.literal('fallback'),
    remote: part,
    from: telemetryToken,
    to: telemetryToken,
  }),
  z.strictObject({
    kind: z.literal('vital'),
    name: z.enum(VITAL_NAMES),
    value: z.number().check(z.minimum(0), z.maximum(10 * 60_000)),
    route,
    remote: part,
    build: telemetryToken,
  }),
  z.strictObject({ kind: z.literal('csp'), route, directive: telemetryToken, blocked: telemetryToken }),
]);

export const telemetryBatchSchema = z.strictObject({
  host: telemetryToken,
  /** The page's ticket, signed by the host's server (server/page-ticket.ts); checked by the API, not here. */
  ticket: z.optional(z.string().check(z.maxLength(MAX_TICKET_LENGTH), z.regex(/^[A-Za-z0-9._-]*$/))),
  events: z.array(telemetryEventSchema).check(z.minLength(1), z.maxLength(TELEMETRY_MAX_EVENTS)),
});
export type TelemetryBatchBody = z.infer<typeof telemetryBatchSchema>;
