import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { ApiProvider } from 'shared/browser/api/api-context';
import { createApiClient } from 'shared/api/client';
import { recordAnalytics } from 'shared/testing/analytics';
import { TestQueryProvider } from 'shared/testing/query-client';
import {
  API_BASE,
  errorResponse,
  GIFT_ID,
  jsonResponse,
  REDEEM_ID,
  stubFetch,
  type FetchStub,
} from '../../../test-utils';
import { useOpenRedeem } from './open-redeem';

const { events } = recordAnalytics();

function renderOpenRedeem(fetchStub: FetchStub) {
  const client = createApiClient({ baseUrl: API_BASE, fetch: fetchStub });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ApiProvider client={client}>
      <TestQueryProvider>
        <MemoryRouter initialEntries={[`/gifts/${GIFT_ID}`]}>{children}</MemoryRouter>
      </TestQueryProvider>
    </ApiProvider>
  );
  const view = renderHook(() => ({ open: useOpenRedeem(GIFT_ID, 'cinema'), location: useLocation() }), { wrapper });
  act(() => view.result.current.open.openRedeem());
  return view.result;
}

describe('useOpenRedeem analytics', () => {
  it('reports the redeem started with the prize, never the gift or session id', async () => {
    const result = renderOpenRedeem(stubFetch(() => jsonResponse({ redeemId: REDEEM_ID }, { status: 201 })));
    await waitFor(() => expect(result.current.location.pathname).toBe(`/redeem/${REDEEM_ID}`));

    expect(events).toEqual([{ name: 'Redeem Started', properties: { prizeId: 'cinema' } }]);
    expect(JSON.stringify(events)).not.toMatch(new RegExp(`${GIFT_ID}|${REDEEM_ID}`));
  });

  it('reports nothing when the session cannot be opened', async () => {
    const result = renderOpenRedeem(stubFetch(() => errorResponse(409, 'This gift has already been redeemed.')));
    await waitFor(() => expect(result.current.open.state.status).toBe('failed'));

    expect(events).toEqual([]);
  });
});
