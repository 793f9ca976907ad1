/** `GET /api/gifts/:giftId`: the gift with its prize, whatever its status. */
import { giftViewSchema } from 'shared/api/contract';
import { type App, type AppContext } from '../../app-context';
import { giftNotFound } from '../../http/errors';
import { giftParamsSchema } from '../../schemas/requests';
import { errorResponses } from '../../schemas/responses';
import { toGiftView } from './gift-view';

export function registerGetGift(app: App, { gifts, now, metrics }: AppContext): void {
  app.get(
    '/api/gifts/:giftId',
    {
      schema: { params: giftParamsSchema, response: { 200: giftViewSchema, ...errorResponses } },
      config: { notFoundMessage: giftNotFound().message },
    },
    async (request) => {
      const row = await gifts.find(request.params.giftId);
      if (!row) throw giftNotFound();
      metrics.giftsOpened.inc();
      return toGiftView(row, now());
    },
  );
}
