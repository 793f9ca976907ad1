/**
 * `GET /api/redeems/:redeemId`: the session with its gift. The voucher code and the email hint
 * only for the visitor who opened or completed the session; anyone else sees them as null.
 *
 * Reads of unknown ids are budgeted per address (UNKNOWN_REDEEM_READS_PER_IP_PER_MINUTE): once an
 * address has spent its budget, an unknown id answers 429 until the minute ends, so a client
 * guessing ids learns nothing more. A session that exists is still read: visitors behind one
 * address (a carrier's NAT) cannot lock each other out of their redeem page by asking for ids
 * that do not exist. Counted in this process's memory (address-budget.ts), since the reads of
 * known sessions must stay writes-free.
 */
import { redeemViewSchema } from 'shared/api/contract';
import { type App, type AppContext } from '../../app-context';
import { redeemNotFound, TooManyRequestsError } from '../../http/errors';
import { existingVisitorId } from '../../http/visitor';
import { AddressBudget } from '../../limits/address-budget';
import { redeemParamsSchema } from '../../schemas/requests';
import { errorResponses } from '../../schemas/responses';
import { findRedeem, toRedeemView } from './redeem-view';

export const UNKNOWN_READS_MESSAGE =
  'Too many requests for redeem links that do not exist. Wait a minute and try again.';

export function registerGetRedeem(app: App, { db, now, config }: AppContext): void {
  const unknownReads = new AddressBudget({
    limit: config.limits.unknownRedeemReadsPerIpPerMinute,
    name: 'reads of unknown redeem sessions',
    log: app.log,
  });
  app.get(
    '/api/redeems/:redeemId',
    {
      schema: { params: redeemParamsSchema, response: { 200: redeemViewSchema, ...errorResponses } },
      config: { notFoundMessage: redeemNotFound().message },
    },
    async (request) => {
      const at = now();
      const row = await findRedeem(db, request.params.redeemId);
      if (row) return toRedeemView(row, at, existingVisitorId(request));
      const taken = unknownReads.take(request.ip, at);
      if (!taken.ok) throw new TooManyRequestsError(UNKNOWN_READS_MESSAGE, taken.retryAfterSeconds);
      throw redeemNotFound();
    },
  );
}
