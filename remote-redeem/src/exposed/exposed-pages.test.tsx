import { screen } from '@testing-library/react';
import { aRedeem, REDEEM_ID } from '../test-fixtures';
import { jsonResponse, renderRedeemPage, stubApi } from '../test-utils';

describe('redeem remote exposed page', () => {
  it("RedeemPage loads the redeem session named by the host's route", async () => {
    const fetchStub = stubApi({ [`GET /api/redeems/${REDEEM_ID}`]: [() => jsonResponse(aRedeem())] });
    renderRedeemPage(fetchStub);

    expect(await screen.findByRole('heading', { level: 1, name: 'Redeem your gift' })).toBeInTheDocument();
    expect(fetchStub).toHaveBeenCalledTimes(1);
  });

  it('RedeemPage asks for the session once under StrictMode, which mounts it twice', async () => {
    const fetchStub = stubApi({ [`GET /api/redeems/${REDEEM_ID}`]: [() => jsonResponse(aRedeem())] });
    renderRedeemPage(fetchStub, REDEEM_ID, { strictMode: true });

    expect(await screen.findByRole('heading', { level: 1, name: 'Redeem your gift' })).toBeInTheDocument();
    expect(fetchStub).toHaveBeenCalledTimes(1);
  });
});
