import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { recordAnalytics } from 'shared/testing/analytics';
import { renderApp } from '../test-utils';

const GIFT_ID = 'Zx9_-aBcDeFgHiJkLmNoPqRs';
const { routes } = recordAnalytics();

describe('page views', () => {
  it('counts the first page by its route pattern, not its address', async () => {
    await renderApp(`/gifts/${GIFT_ID}`).settled();
    expect(screen.getByRole('heading', { name: 'GiftPage content' })).toBeInTheDocument();

    expect(routes).toEqual(['/gifts/:giftId']);
  });

  it('counts each client-side navigation once', async () => {
    const { settled } = renderApp('/');
    await settled();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await settled(() => userEvent.click(within(nav).getByRole('link', { name: 'Play' })));
    expect(screen.getByRole('heading', { name: 'GamePage content' })).toBeInTheDocument();
    await settled(() => userEvent.click(within(nav).getByRole('link', { name: 'About' })));
    expect(screen.getByRole('heading', { name: 'AboutPage content' })).toBeInTheDocument();

    expect(routes).toEqual(['/', '/game', '/about']);
  });

  it.each(['/no-such-page', '/gifts/not-an-id'])('counts %s, a page that does not exist, as "*"', async (path) => {
    await renderApp(path).settled();
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();

    expect(routes).toEqual(['*']);
  });
});
