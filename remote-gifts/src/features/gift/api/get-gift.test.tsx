import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiProvider } from 'shared/browser/api/api-context';
import { createApiClient } from 'shared/api/client';
import { recordAnalytics } from 'shared/testing/analytics';
import { TestQueryProvider } from 'shared/testing/query-client';
import {
  API_BASE,
  errorResponse,
  GIFT_ID,
  giftView,
  jsonResponse,
  stubFetch,
  type FetchStub,
} from '../../../test-utils';
import { useGift } from './get-gift';

const { events } = recordAnalytics();

function renderGift(fetchStub: FetchStub) {
  const client = createApiClient({ baseUrl: API_BASE, fetch: fetchStub });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ApiProvider client={client}>
      <TestQueryProvider>{children}</TestQueryProvider>
    </ApiProvider>
  );
  const view = renderHook(() => useGift(GIFT_ID), { wrapper });
  return view.result;
}

describe('useGift analytics', () => {
  it('reports the gift viewed by its prize and status, never its id', async () => {
    const result = renderGift(stubFetch(() => jsonResponse(giftView({ status: 'redeemed' }))));
    await waitFor(() => expect(result.current.state.status).toBe('ready'));

    expect(events).toEqual([{ name: 'Gift Viewed', properties: { prizeId: 'cinema', status: 'redeemed' } }]);
    expect(JSON.stringify(events)).not.toContain(GIFT_ID);
  });

  it('reports nothing for a gift that does not load', async () => {
    const result = renderGift(stubFetch(() => errorResponse(404, 'This gift does not exist.')));
    await waitFor(() => expect(result.current.state.status).toBe('failed'));

    expect(events).toEqual([]);
  });
});
