/** Request schemas: strict objects (an unknown field is a 400) and ids in shared's format. */
import { z } from 'zod';
import { type CompleteRedeemBody } from 'shared/api/contract';
import { ID_PATTERN } from 'shared/ids';
import { type Expect, type Same } from './contract-check';

/** A malformed id cannot exist: the error handler answers a failed params check with 404. */
const id = z.string().regex(ID_PATTERN);

export const giftParamsSchema = z.strictObject({ giftId: id });
export const redeemParamsSchema = z.strictObject({ redeemId: id });

/** POSTs that take no input accept no body, or `{}`. */
export const emptyBodySchema = z.strictObject({}).nullish();

/** Types only: the email rule and the terms are checked by the handler, with the form's messages. */
export const completeRedeemBodySchema = z.strictObject({
  email: z.string().max(1024),
  acceptTerms: z.boolean(),
});

export type RequestSchemasMatchContract = [Expect<Same<z.infer<typeof completeRedeemBodySchema>, CompleteRedeemBody>>];
