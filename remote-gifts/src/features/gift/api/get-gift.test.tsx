import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiProvider } from 'shared/browser/api/api-context';
import { createApiClient, type ApiClient } from 'shared/api/client';
import { giftQueryOptions } from 'shared/browser/api/gift-query';
import { prefetchPageQuery } from 'shared/browser/api/page-prefetch';
import { recordAnalytics } from 'shared/testing/analytics';
import { createTestQueryClient, TestQueryProvider } from 'shared/testing/query-client';
import {
  API_BASE,
  deferredReply,
  errorResponse,
  GIFT_ID,
  giftView,
  jsonResponse,
  stubFetch,
  type FetchStub,
} from '../../../test-utils';
import { useGift } from './get-gift';

const { events } = recordAnalytics();

function renderGift(fetchStub: FetchStub, queryClient = createTestQueryClient(), api = apiFor(fetchStub)) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ApiProvider client={api}>
      <TestQueryProvider client={queryClient}>{children}</TestQueryProvider>
    </ApiProvider>
  );
  const view = renderHook(() => useGift(GIFT_ID), { wrapper });
  return view.result;
}

function apiFor(fetchStub: FetchStub): ApiClient {
  return createApiClient({ baseUrl: API_BASE, fetch: fetchStub });
}

describe('useGift after the host has asked for the gift', () => {
  // The host's route loader starts the gift's query with this page's code (host/src/router/route-data.ts).
  it('shows the answer to the request in flight, without sending another', async () => {
    const { reply, resolve } = deferredReply();
    const fetchStub = stubFetch(reply);
    const queryClient = createTestQueryClient();
    void prefetchPageQuery(queryClient, giftQueryOptions(apiFor(fetchStub), GIFT_ID));

    const result = renderGift(fetchStub, queryClient);
    expect(result.current.state.status).toBe('loading');
    resolve(jsonResponse(giftView()));
    await waitFor(() => expect(result.current.state.status).toBe('ready'));
    expect(fetchStub).toHaveBeenCalledTimes(1);
  });

  it('shows an answer that came before this page, without asking again', async () => {
    const fetchStub = stubFetch(() => jsonResponse(giftView()));
    const queryClient = createTestQueryClient();
    await prefetchPageQuery(queryClient, giftQueryOptions(apiFor(fetchStub), GIFT_ID));

    const result = renderGift(fetchStub, queryClient);
    expect(result.current.state).toEqual({ status: 'ready', gift: giftView() });
    await new Promise((settle) => setTimeout(settle, 0));
    expect(fetchStub).toHaveBeenCalledTimes(1);
    expect(events).toEqual([{ name: 'Gift Viewed', properties: { prizeId: 'cinema', status: 'available' } }]);
  });
});

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
