import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useDocumentTitle } from 'shared/browser/use-document-title';
import { recordAnalytics } from 'shared/testing/analytics';
import { pageNamed, renderApp } from '../test-utils';

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

describe('the document title', () => {
  it("is the page's own when the page refines it in the commit that changes the route (its code loaded ahead)", async () => {
    function ExpiredGiftPage() {
      useDocumentTitle('This gift has expired');
      return <h1>This gift has expired</h1>;
    }
    const app = renderApp('/', {
      load: async (_remote, module) => (module === 'GiftPage' ? ExpiredGiftPage : pageNamed(`${module} content`)),
    });
    await app.settled();
    await app.settled(() => app.router.navigate(`/gifts/${GIFT_ID}`));
    expect(screen.getByRole('heading', { name: 'This gift has expired' })).toBeInTheDocument();

    expect(document.title).toMatch(/^This gift has expired/);
  });
});
