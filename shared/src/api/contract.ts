/**
 * The API's contract: one zod schema per shape, its type inferred (api/README.md lists the endpoints).
 * Browser code imports only types from here and values from contract-values.ts (client.ts says why).
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

const timestamp = z.iso.datetime();
const count = z.int().check(z.minimum(0));

export const giftStatusSchema = z.enum(['available', 'redeemed', 'expired']);
export type GiftStatus = z.infer<typeof giftStatusSchema>;

export const redeemStatusSchema = z.enum(['open', 'completed', 'expired', 'superseded']);
export type RedeemStatus = z.infer<typeof redeemStatusSchema>;

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
  icon: z.string(),
});
export type PrizeView = z.infer<typeof prizeViewSchema>;

export const giftViewSchema = z.object({
  giftId: z.string(),
  prize: prizeViewSchema,
  status: giftStatusSchema,
  createdAt: timestamp,
  expiresAt: timestamp,
  redeemedAt: z.nullable(timestamp),
});
export type GiftView = z.infer<typeof giftViewSchema>;

/** `POST /api/game/plays`: the same `Idempotency-Key` from the same visitor gets the first answer again. */
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
    playsResetAt: timestamp,
    soldOut: z.boolean(),
  }),
]);
export type PlayResult = z.infer<typeof playResultSchema>;

export const visitorGiftSchema = z.extend(giftViewSchema, {
  redeemId: z.nullable(z.string()),
});
export type VisitorGift = z.infer<typeof visitorGiftSchema>;

export const visitorGiftsSchema = z.object({ gifts: z.array(visitorGiftSchema) });
export type VisitorGifts = z.infer<typeof visitorGiftsSchema>;

export const openRedeemResultSchema = z.object({ redeemId: z.string() });
export type OpenRedeemResult = z.infer<typeof openRedeemResultSchema>;

export const voucherTermsSchema = z.object({
  howToUse: z.string(),
  conditions: z.string(),
  validDays: z.int(),
});
export type VoucherTerms = z.infer<typeof voucherTermsSchema>;

export const redeemViewSchema = z.object({
  redeemId: z.string(),
  status: redeemStatusSchema,
  createdAt: timestamp,
  expiresAt: timestamp,
  gift: giftViewSchema,
  completedAt: z.nullable(timestamp),
  /** Only for the visitor who opened or completed the session; null for anyone else. */
  voucherCode: z.nullable(z.string()),
  emailHint: z.nullable(z.string()),
  voucherTerms: voucherTermsSchema,
  voucherValidUntil: z.nullable(timestamp),
});
export type RedeemView = z.infer<typeof redeemViewSchema>;

/** Strict: an unknown field is a 400. The email rule and the terms are the handler's to check. */
export const completeRedeemBodySchema = z.strictObject({
  email: z.string().check(z.maxLength(1024)),
  acceptTerms: z.boolean(),
});
export type CompleteRedeemBody = z.infer<typeof completeRedeemBodySchema>;

export const completeRedeemResultSchema = z.object({
  voucherCode: z.string(),
  redeemedAt: timestamp,
  voucherValidUntil: timestamp,
});
export type CompleteRedeemResult = z.infer<typeof completeRedeemResultSchema>;

export const apiErrorBodySchema = z.object({
  statusCode: z.int().check(z.minimum(400), z.maximum(599)),
  statusMessage: z.string(),
  message: z.string(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/**
 * Telemetry: shapes and bounds only; the API labels each value from known sets (telemetry-labels.ts).
 * A route or remote is a bounded string, so a page showing a remote the API lacks is still counted.
 */
const telemetryToken = z.string().check(z.maxLength(128), z.regex(/^[A-Za-z0-9._:/-]*$/));
const part = z.string().check(z.maxLength(64), z.regex(/^[a-z][a-z0-9-]*$/));
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
  ticket: z.optional(z.string().check(z.maxLength(MAX_TICKET_LENGTH), z.regex(/^[A-Za-z0-9._-]*$/))),
  events: z.array(telemetryEventSchema).check(z.minLength(1), z.maxLength(TELEMETRY_MAX_EVENTS)),
});
export type TelemetryBatchBody = z.infer<typeof telemetryBatchSchema>;
