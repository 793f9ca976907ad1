/** `GET /api/redeems/:redeemId`: the session with its gift; the voucher once completed. */
import { type App, type AppContext } from '../../app-context';
import { redeemNotFound } from '../../http/errors';
import { redeemParamsSchema } from '../../schemas/requests';
import { errorResponses, redeemViewSchema } from '../../schemas/views';
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
      return toRedeemView(row, now());
    },
  );
}
