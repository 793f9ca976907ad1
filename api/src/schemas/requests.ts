/** What the API checks of a request besides the contract's bodies. */
import { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from 'shared/api/contract';
import { ID_PATTERN } from 'shared/ids';

/** A malformed id cannot exist: the error handler answers a failed params check with 404. */
const id = z.string().regex(ID_PATTERN);

export const giftParamsSchema = z.strictObject({ giftId: id });
export const redeemParamsSchema = z.strictObject({ redeemId: id });

export const playHeadersSchema = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, 'The Idempotency-Key header must be 16 to 64 characters of A-Z, a-z, 0-9, _ or -.')
    .optional(),
});

export const emptyBodySchema = z.strictObject({}).nullish();
