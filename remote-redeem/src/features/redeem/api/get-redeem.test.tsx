import { screen } from '@testing-library/react';
import { createApiClient } from 'shared/api/client';
import { prefetchPageQuery } from 'shared/browser/api/page-prefetch';
import { redeemQueryOptions } from 'shared/browser/api/redeem-query';
import { createTestQueryClient } from 'shared/testing/query-client';
import { aRedeem, REDEEM_ID } from '../../../test-fixtures';
import { API_BASE, jsonResponse, renderRedeemPage, stubApi } from '../../../test-utils';

const GET = `GET /api/redeems/${REDEEM_ID}`;

// The host's route loader starts the session's query with this page's code (host/src/router/route-data.ts).
describe('the redeem page after the host has asked for its session', () => {
  it.each([
    ['still on its way', false],
    ['that came first', true],
  ])('shows the answer %s, without asking again, even mounted twice', async (_when, answered) => {
    let answer: (response: Response) => void = () => undefined;
    const fetchStub = stubApi({ [GET]: [() => new Promise<Response>((resolve) => (answer = resolve))] });
    const queryClient = createTestQueryClient();
    const api = createApiClient({ baseUrl: API_BASE, fetch: fetchStub });
    const prefetched = prefetchPageQuery(queryClient, redeemQueryOptions(api, REDEEM_ID));
    if (answered) {
      answer(jsonResponse(aRedeem()));
      await prefetched;
    }

    renderRedeemPage(fetchStub, REDEEM_ID, { queryClient, strictMode: true });
    if (!answered) answer(jsonResponse(aRedeem()));
    expect(await screen.findByRole('heading', { level: 2, name: 'Coffee shop voucher' })).toBeInTheDocument();
    expect(fetchStub).toHaveBeenCalledTimes(1);
  });
});
