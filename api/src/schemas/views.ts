/** Response schemas: exactly the shapes of shared/src/api/contract.ts, checked at compile time. */
import { z } from 'zod';
import {
  type ApiErrorBody,
  type CompleteRedeemResult,
  type GiftView,
  type OpenRedeemResult,
  type PlayResult,
  type PrizeValue,
  type PrizeView,
  type RedeemView,
  type VisitorGifts,
  type VoucherTerms,
} from 'shared/api/contract';
import { type Expect, type Same } from './contract-check';

const timestamp = z.iso.datetime();

export const prizeValueSchema = z.union([
  z.object({ amount: z.number(), currency: z.string() }),
  z.object({ label: z.string() }),
]);

export const prizeViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  value: prizeValueSchema,
  icon: z.string(),
});

export const giftViewSchema = z.object({
  giftId: z.string(),
  prize: prizeViewSchema,
  status: z.enum(['available', 'redeemed', 'expired']),
  createdAt: timestamp,
  expiresAt: timestamp,
  redeemedAt: timestamp.nullable(),
});

export const playResultSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('win'),
    gift: giftViewSchema,
    playsRemaining: z.number().int().min(0),
    playsResetAt: timestamp,
  }),
  z.object({
    outcome: z.literal('lose'),
    playsRemaining: z.number().int().min(0),
    playsResetAt: timestamp,
    soldOut: z.boolean(),
  }),
]);

export const visitorGiftsSchema = z.object({
  gifts: z.array(giftViewSchema.extend({ redeemId: z.string().nullable() })),
});

export const openRedeemResultSchema = z.object({ redeemId: z.string() });

export const voucherTermsSchema = z.object({
  howToUse: z.string(),
  conditions: z.string(),
  validDays: z.number().int(),
});

export const redeemViewSchema = z.object({
  redeemId: z.string(),
  status: z.enum(['open', 'completed', 'expired', 'superseded']),
  createdAt: timestamp,
  expiresAt: timestamp,
  gift: giftViewSchema,
  completedAt: timestamp.nullable(),
  voucherCode: z.string().nullable(),
  emailHint: z.string().nullable(),
  voucherTerms: voucherTermsSchema,
  voucherValidUntil: timestamp.nullable(),
});

export const completeRedeemResultSchema = z.object({
  voucherCode: z.string(),
  redeemedAt: timestamp,
  voucherValidUntil: timestamp,
});

export const errorBodySchema = z.object({
  statusCode: z.number().int().min(400).max(599),
  statusMessage: z.string(),
  message: z.string(),
});

export const healthSchema = z.object({ status: z.literal('ok') });

/** Every error status a route may answer, with the one error body. */
export const errorResponses = { '4xx': errorBodySchema, '5xx': errorBodySchema } as const;

export type ViewSchemasMatchContract = [
  Expect<Same<z.infer<typeof prizeValueSchema>, PrizeValue>>,
  Expect<Same<z.infer<typeof prizeViewSchema>, PrizeView>>,
  Expect<Same<z.infer<typeof giftViewSchema>, GiftView>>,
  Expect<Same<z.infer<typeof playResultSchema>, PlayResult>>,
  Expect<Same<z.infer<typeof visitorGiftsSchema>, VisitorGifts>>,
  Expect<Same<z.infer<typeof openRedeemResultSchema>, OpenRedeemResult>>,
  Expect<Same<z.infer<typeof voucherTermsSchema>, VoucherTerms>>,
  Expect<Same<z.infer<typeof redeemViewSchema>, RedeemView>>,
  Expect<Same<z.infer<typeof completeRedeemResultSchema>, CompleteRedeemResult>>,
  Expect<Same<z.infer<typeof errorBodySchema>, ApiErrorBody>>,
];
