import { screen } from '@testing-library/react';
import { renderAt } from 'shared/testing/render-at';
import RedeemPage from './redeem-page';

const ID = 'Zx9_-aBcDeFgHiJkLmNoPqRs';

describe('redeem remote exposed page', () => {
  it("RedeemPage shows the redeem session id from the host's route", () => {
    renderAt(`/redeem/${ID}`, { '/redeem/:redeemId': <RedeemPage /> });
    expect(screen.getByRole('heading', { level: 1, name: 'Redeem your gift' })).toBeInTheDocument();
    expect(screen.getByText(ID)).toBeInTheDocument();
  });
});
