/**
 * `GET /api/redeems/:redeemId`: the session with its gift. The voucher code and the email hint
 * only for the visitor who opened or completed the session; anyone else sees them as null.
 */
import { redeemViewSchema } from 'shared/api/contract';
import { type App, type AppContext } from '../../app-context';
import { redeemNotFound } from '../../http/errors';
import { existingVisitorId } from '../../http/visitor';
import { redeemParamsSchema } from '../../schemas/requests';
import { errorResponses } from '../../schemas/responses';
import { findRedeem, toRedeemView } from './redeem-view';

export function registerGetRedeem(app: App, { db, now }: AppContext): void {
  app.get(
    '/api/redeems/:redeemId',
    {
      schema: { params: redeemParamsSchema, response: { 200: redeemViewSchema, ...errorResponses } },
      config: { notFoundMessage: redeemNotFound().message },
    },
    async (request) => {
      const row = await findRedeem(db, request.params.redeemId);
      if (!row) throw redeemNotFound();
      return toRedeemView(row, now(), existingVisitorId(request));
    },
  );
}
