import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiProvider } from 'shared/browser/api/api-context';
import { createApiClient } from 'shared/api/client';
import { recordAnalytics } from 'shared/testing/analytics';
import { TestQueryProvider } from 'shared/testing/query-client';
import { REDEEM_ID } from '../../../test-fixtures';
import { API_BASE, errorResponse, jsonResponse, stubApi, type FetchStub } from '../../../test-utils';
import { useCompleteRedeem } from './complete-redeem';

const COMPLETE = `POST /api/redeems/${REDEEM_ID}/complete`;
const EMAIL = 'jane@example.com';
const VOUCHER = '7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE';

const { events } = recordAnalytics();

async function complete(fetchStub: FetchStub) {
  const client = createApiClient({ baseUrl: API_BASE, fetch: fetchStub });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ApiProvider client={client}>
      <TestQueryProvider>{children}</TestQueryProvider>
    </ApiProvider>
  );
  const handlers = { onCompleted: jest.fn(), onClosed: jest.fn(async () => false) };
  const { result } = renderHook(() => useCompleteRedeem(REDEEM_ID, handlers, 'coffee-voucher'), { wrapper });
  await act(() => result.current.send({ email: EMAIL, acceptTerms: true }));
  return { result, handlers };
}

describe('useCompleteRedeem analytics', () => {
  it('reports the redemption with the prize only: no email, voucher or session id', async () => {
    const { handlers } = await complete(
      stubApi({ [COMPLETE]: [() => jsonResponse({ voucherCode: VOUCHER, redeemedAt: '2030-02-01T14:09:00.000Z' })] }),
    );

    expect(handlers.onCompleted).toHaveBeenCalled();
    expect(events).toEqual([{ name: 'Redeem Completed', properties: { prizeId: 'coffee-voucher' } }]);
    expect(JSON.stringify(events)).not.toMatch(new RegExp(`${EMAIL}|${VOUCHER}|${REDEEM_ID}`));
  });

  it('reports nothing when the redemption is refused', async () => {
    const { result } = await complete(
      stubApi({ [COMPLETE]: [() => errorResponse(400, 'You must accept the terms.')] }),
    );

    expect(result.current.state.status).toBe('failed');
    expect(events).toEqual([]);
  });
});
