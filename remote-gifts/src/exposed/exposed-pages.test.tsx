import { screen } from '@testing-library/react';
import { renderAt } from 'shared/testing/render-at';
import GamePage from './game-page';
import GiftPage from './gift-page';

const ID = 'Zx9_-aBcDeFgHiJkLmNoPqRs';

describe('gifts remote exposed pages', () => {
  it('GamePage renders the game heading', () => {
    renderAt('/game', { '/game': <GamePage /> });
    expect(screen.getByRole('heading', { level: 1, name: 'Pick a box' })).toBeInTheDocument();
  });

  it("GiftPage shows the gift id from the host's route", () => {
    renderAt(`/gifts/${ID}`, { '/gifts/:giftId': <GiftPage /> });
    expect(screen.getByRole('heading', { level: 1, name: 'Your gift' })).toBeInTheDocument();
    expect(screen.getByText(ID)).toBeInTheDocument();
  });
});
