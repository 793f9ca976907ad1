import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { recordAnalytics } from 'shared/testing/analytics';
import { renderApp } from '../test-utils';

const GIFT_ID = 'Zx9_-aBcDeFgHiJkLmNoPqRs';
const { routes } = recordAnalytics();

describe('page views', () => {
  it('counts the first page by its route pattern, not its address', async () => {
    renderApp(`/gifts/${GIFT_ID}`);
    await screen.findByRole('heading', { name: 'GiftPage content' });

    expect(routes).toEqual(['/gifts/:giftId']);
  });

  it('counts each client-side navigation once', async () => {
    renderApp('/');
    await screen.findByRole('heading', { name: 'HomePage content' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await userEvent.click(within(nav).getByRole('link', { name: 'Play' }));
    await screen.findByRole('heading', { name: 'GamePage content' });
    await userEvent.click(within(nav).getByRole('link', { name: 'About' }));
    await screen.findByRole('heading', { name: 'AboutPage content' });

    expect(routes).toEqual(['/', '/game', '/about']);
  });

  it.each(['/no-such-page', '/gifts/not-an-id'])('counts %s, a page that does not exist, as "*"', async (path) => {
    renderApp(path);
    await screen.findByRole('heading', { name: 'Page Not Found' });

    expect(routes).toEqual(['*']);
  });
});
