/**
 * `GET /api/redeems/:redeemId`: the voucher only for the session's own visitor. Unknown ids are
 * budgeted per address in memory; known sessions are always read, so one NAT's visitors cannot
 * lock each other out.
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
