import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from 'shared/testing/render-at';
import { jsonResponse, silenceWarnings, stubFetch } from '../../../test-utils';
import { ContentPage } from './content-page';

const ABOUT = {
  title: 'About Gift Box',
  html: '<p>We wrap gifts.</p><p><a href="/game">Play</a> <a href="/about#contact">Contact</a> <a href="https://example.com/">Elsewhere</a></p>',
};

function renderAbout() {
  return renderAt('/about', {
    '/about': <ContentPage page="about" />,
    '/game': <p>The game screen</p>,
  });
}

/** Whether the browser would follow this click: React handles it first, then this listener. */
function clickAllowed(link: HTMLElement, init: MouseEventInit = {}): boolean {
  let allowed = false;
  const record = (event: Event) => {
    allowed = !event.defaultPrevented;
    event.preventDefault(); // jsdom cannot navigate; stop it trying.
  };
  window.addEventListener('click', record, { once: true });
  fireEvent.click(link, init);
  return allowed;
}

describe('ContentPage', () => {
  it('fetches its payload from the public path and renders title and html', async () => {
    const fetchMock = stubFetch(() => jsonResponse(ABOUT));
    renderAbout();
    expect(screen.getByRole('article')).toHaveAttribute('aria-busy', 'true');

    expect(await screen.findByRole('heading', { level: 1, name: 'About Gift Box' })).toBeInTheDocument();
    expect(screen.getByText('We wrap gifts.')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'About Gift Box' })).toHaveClass('p-content');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('http://localhost/payload/about.json');
    expect(document.title).toBe('About Gift Box · Gift Box');
  });

  it.each([
    ['a 404', () => new Response('Not found', { status: 404 }), 'text was not found (HTTP 404)'],
    ['invalid JSON', () => new Response('{"title": "About', { status: 200 }), 'not valid JSON'],
    ['the wrong shape', () => jsonResponse({ title: 'About', body: '<p>x</p>' }), 'unexpected content'],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch')), 'could not be reached'],
  ])('shows a retryable error on %s and warns', async (_case, reply, message) => {
    const warn = silenceWarnings();
    stubFetch(reply);
    renderAbout();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"about" payload failed'), expect.anything());
  });

  it('puts only the allow-listed HTML of a payload into the page, whatever the payload file holds', async () => {
    const hostile = {
      title: 'About Gift Box',
      html:
        '<p onclick="window.__ran=1">We wrap gifts.</p><script>window.__ran=2</script>' +
        '<img src="x" onerror="window.__ran=3"><iframe src="https://evil.example/"></iframe>' +
        '<p><a href="javascript:window.__ran=4">Play</a> <a href="/game" onmouseover="window.__ran=5">Game</a></p>',
    };
    stubFetch(() => jsonResponse(hostile));
    renderAbout();

    const article = await screen.findByRole('article', { name: 'About Gift Box' });
    const body = article.querySelector('.p-content__body') as HTMLElement;
    expect(body.innerHTML).toBe('<p>We wrap gifts.</p><p><a>Play</a> <a href="/game">Game</a></p>');
    expect(article.querySelector('script, iframe, img, [onclick], [onerror], [onmouseover]')).toBeNull();
    expect((window as unknown as { __ran?: number }).__ran).toBeUndefined();
  });

  it('refetches on "Try again" and then renders the page', async () => {
    silenceWarnings();
    const fetchMock = stubFetch(
      () => new Response('Bad gateway', { status: 502 }),
      () => jsonResponse(ABOUT),
    );
    renderAbout();

    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { name: 'About Gift Box' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('navigates with the router when an internal link is clicked', async () => {
    stubFetch(() => jsonResponse(ABOUT));
    renderAbout();

    await userEvent.click(await screen.findByRole('link', { name: 'Play' }));

    expect(await screen.findByText('The game screen')).toBeInTheDocument();
  });

  it('leaves external links, modified clicks and same-page fragments to the browser', async () => {
    stubFetch(() => jsonResponse(ABOUT));
    renderAbout();

    expect(clickAllowed(await screen.findByRole('link', { name: 'Elsewhere' }))).toBe(true);
    expect(clickAllowed(screen.getByRole('link', { name: 'Play' }), { ctrlKey: true })).toBe(true);
    expect(clickAllowed(screen.getByRole('link', { name: 'Contact' }))).toBe(true);
    expect(screen.getByRole('heading', { name: 'About Gift Box' })).toBeInTheDocument();
  });

  it('shows the actions while loading, after an error and once loaded', async () => {
    silenceWarnings();
    stubFetch(
      () => new Response('', { status: 500 }),
      () => jsonResponse(ABOUT),
    );
    renderAt('/', { '/': <ContentPage page="home" actions={<a href="/game">Go</a>} /> });

    expect(screen.getByRole('link', { name: 'Go' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('link', { name: 'Go' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'About Gift Box' })).toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Go' })).toBeInTheDocument();
  });

  it('shows when its text was last updated, once loaded, and nothing without a date', async () => {
    stubFetch(
      () => new Promise<Response>((resolve) => setTimeout(() => resolve(jsonResponse(ABOUT)), 10)),
      () => jsonResponse(ABOUT),
    );
    const { unmount } = renderAt('/', { '/': <ContentPage page="about" updatedAt={Date.UTC(2030, 1, 14, 12)} /> });
    expect(screen.queryByText(/^Updated/)).not.toBeInTheDocument();

    const updated = await screen.findByText(/^Updated/);
    expect(updated).toHaveTextContent('Updated February 14, 2030');
    expect(screen.getByText('February 14, 2030')).toHaveAttribute('datetime', '2030-02-14T12:00:00.000Z');
    unmount();

    renderAbout();
    expect(await screen.findByRole('heading', { name: 'About Gift Box' })).toBeInTheDocument();
    expect(screen.queryByText(/^Updated/)).not.toBeInTheDocument();
  });
});
