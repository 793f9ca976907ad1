import { act, renderHook, waitFor } from '@testing-library/react';
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
  silenceWarnings,
  stubFetch,
  type FetchStub,
  withVisitorGifts,
} from '../../../test-utils';
import { usePlay } from './play';

const { events } = recordAnalytics();
const RESET_AT = '2030-03-16T00:00:00.000Z';

afterEach(() => jest.restoreAllMocks());

function renderPlay(fetchStub: FetchStub) {
  const client = createApiClient({ baseUrl: API_BASE, fetch: withVisitorGifts(fetchStub) });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ApiProvider client={client}>
      <TestQueryProvider>{children}</TestQueryProvider>
    </ApiProvider>
  );
  return renderHook(() => usePlay(), { wrapper });
}

async function playBox(fetchStub: FetchStub) {
  const { result } = renderPlay(fetchStub);
  act(() => result.current.play(2));
  await waitFor(() => expect(result.current.state.status).not.toBe('pending'));
  return result;
}

describe('usePlay analytics', () => {
  it('reports a win with the prize, not the gift it made', async () => {
    await playBox(
      stubFetch(() => jsonResponse({ outcome: 'win', gift: giftView(), playsRemaining: 2, playsResetAt: RESET_AT })),
    );

    expect(events).toEqual([{ name: 'Game Played', properties: { outcome: 'win', prizeId: 'cinema' } }]);
    expect(JSON.stringify(events)).not.toContain(GIFT_ID);
  });

  it('reports a loss, and whether nobody can win any more', async () => {
    await playBox(
      stubFetch(() => jsonResponse({ outcome: 'lose', playsRemaining: 0, playsResetAt: RESET_AT, soldOut: true })),
    );

    expect(events).toEqual([{ name: 'Game Played', properties: { outcome: 'lose', soldOut: true } }]);
  });

  it('reports nothing when the play does not go through', async () => {
    silenceWarnings();
    const result = await playBox(stubFetch(() => errorResponse(503, 'The game is resting for a moment.')));

    expect(result.current.state.status).toBe('failed');
    expect(events).toEqual([]);
  });
});
