import { screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { GIFT_ID, giftView, jsonResponse, renderWithApi, requestsOf, stubFetch } from '../test-utils';
import GamePage from './game-page';
import GiftPage from './gift-page';

describe('gifts remote exposed pages', () => {
  it('GamePage shows the boxes, and calls nothing before a pick', () => {
    const fetchStub = stubFetch();
    renderWithApi('/game', { '/game': <GamePage /> }, fetchStub);
    expect(screen.getByRole('heading', { level: 1, name: 'Pick a box' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Box 1' })).toBeInTheDocument();
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it("GiftPage loads the gift named by the host's route", async () => {
    const fetchStub = stubFetch(() => jsonResponse(giftView()));
    renderWithApi(`/gifts/${GIFT_ID}`, { '/gifts/:giftId': <GiftPage /> }, fetchStub);
    expect(screen.getByRole('heading', { level: 1, name: 'Your gift' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Your gift: Cinema ticket' })).toBeInTheDocument();
    expect(requestsOf(fetchStub)).toEqual([`GET http://api.test/api/gifts/${GIFT_ID}`]);
  });

  it('GiftPage asks for the gift once under StrictMode, which mounts it twice', async () => {
    const fetchStub = stubFetch(() => jsonResponse(giftView()));
    const page = (
      <StrictMode>
        <GiftPage />
      </StrictMode>
    );
    renderWithApi(`/gifts/${GIFT_ID}`, { '/gifts/:giftId': page }, fetchStub);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your gift: Cinema ticket' })).toBeInTheDocument();
    expect(requestsOf(fetchStub)).toEqual([`GET http://api.test/api/gifts/${GIFT_ID}`]);
  });
});
