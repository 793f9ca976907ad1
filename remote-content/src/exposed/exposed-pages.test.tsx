import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, type ComponentType } from 'react';
import { renderAt } from 'shared/testing/render-at';
import { jsonResponse, stubFetch } from '../test-utils';
import AboutPage from './about-page';
import HomePage from './home-page';
import PrivacyPolicyPage from './privacy-policy-page';
import TermsPage from './terms-page';

const PAGES: [string, ComponentType][] = [
  ['home', HomePage],
  ['about', AboutPage],
  ['privacy-policy', PrivacyPolicyPage],
  ['terms', TermsPage],
];

it.each(PAGES)('the %s page renders its own payload', async (page, Page) => {
  const fetchMock = stubFetch(() => jsonResponse({ title: `Title of ${page}`, html: '<p>Text</p>' }));
  renderAt('/', { '/': <Page /> });

  expect(await screen.findByRole('heading', { level: 1, name: `Title of ${page}` })).toBeInTheDocument();
  expect(fetchMock.mock.calls[0]?.[0]).toBe(`http://localhost/payload/${page}.json`);
});

it.each(PAGES.slice(0, 2))('the %s page says when it was updated: its build’s date', async (_page, Page) => {
  stubFetch(() => jsonResponse({ title: 'Title', html: '<p>Text</p>' }));
  renderAt('/', { '/': <Page /> });

  // jest.config.js stands in for webpack's define of __BUILD_TIMESTAMP__.
  expect(await screen.findByText(/^Updated/)).toHaveTextContent('Updated February 14, 2030');
  expect(screen.getByText('February 14, 2030')).toHaveAttribute('datetime', '2030-02-14T12:00:00.000Z');
});

it.each(PAGES.slice(2))('the %s page carries only the date written in its own text', async (_page, Page) => {
  stubFetch(() => jsonResponse({ title: 'Title', html: '<p>Last updated: [date].</p>' }));
  renderAt('/', { '/': <Page /> });

  expect(await screen.findByText('Last updated: [date].')).toBeInTheDocument();
  expect(screen.queryByText(/^Updated/)).not.toBeInTheDocument();
});

it('a page asks for its payload once under StrictMode, which mounts it twice', async () => {
  const fetchMock = stubFetch(() => jsonResponse({ title: 'About Gift Box', html: '<p>Text</p>' }));
  const page = (
    <StrictMode>
      <AboutPage />
    </StrictMode>
  );
  renderAt('/', { '/': page });

  expect(await screen.findByRole('heading', { level: 1, name: 'About Gift Box' })).toBeInTheDocument();
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

it('the home page invites to play, before its text has loaded', async () => {
  stubFetch(() => new Promise<Response>(() => undefined));
  renderAt('/', { '/': <HomePage />, '/game': <p>The game screen</p> });

  const play = screen.getByRole('link', { name: 'Play now' });
  expect(play).toHaveAttribute('href', '/game');
  expect(play).toHaveClass('p-button', 'p-button--primary');
  await userEvent.click(play);
  expect(await screen.findByText('The game screen')).toBeInTheDocument();
});
