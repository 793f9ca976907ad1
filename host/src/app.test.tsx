import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rememberVisitorGifts } from 'shared/browser/api/visitor-gifts-hint';
import { RemoteTimeoutError } from './federation/load-errors';
import { keptContent } from './prerender/kept-content';
import { interact, pageNamed, renderApp, type LoadImpl } from './test-utils';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';

/** What the app keeps of a page the host's server prerendered with this markup in its main region. */
function mainContent(markup: string): DocumentFragment {
  return keptContent(new DOMParser().parseFromString(`<div id="root"><main>${markup}</main></div>`, 'text/html'));
}

/**
 * A remote whose files fail to load until `fix()`; then they are fetched anew, and its page
 * arrives when the test calls `arrive()`, as over a network: after the retry has rendered.
 */
function remoteFailingAtFirst() {
  let fixed = false;
  let arrive: () => void = () => undefined;
  const load: LoadImpl = (_remote, module) =>
    fixed
      ? new Promise((resolve) => {
          arrive = () => resolve(pageNamed(`${module} content`));
        })
      : Promise.reject(new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources.'));
  return { load, fix: () => (fixed = true), arrive: () => arrive() };
}

function layout(): string | null {
  return document.querySelector('[data-layout]')?.getAttribute('data-layout') ?? null;
}

describe('routes and layouts', () => {
  it.each([
    ['/', 'HomePage', 'default'],
    ['/about', 'AboutPage', 'default'],
    ['/game', 'GamePage', 'default'],
    [`/gifts/${ID}`, 'GiftPage', 'no-footer'],
    ['/privacy-policy', 'PrivacyPolicyPage', 'default'],
    [`/redeem/${ID}`, 'RedeemPage', 'redeem'],
    ['/terms', 'TermsPage', 'default'],
  ])('%s renders %s in the %s layout', async (path, module, expectedLayout) => {
    await renderApp(path).settled();
    expect(screen.getByRole('heading', { name: `${module} content` })).toBeInTheDocument();
    expect(layout()).toBe(expectedLayout);
    expect(document.querySelector('footer') !== null).toBe(expectedLayout === 'default');
  });

  it('links to every content page and the game in the default header, and to the legal pages in the footer', async () => {
    await renderApp('/').settled();
    expect(screen.getByRole('heading', { name: 'HomePage content' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const hrefs = within(nav)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(['/', '/game', '/about', '/privacy-policy', '/terms']);
    const footer = screen.getByRole('contentinfo');
    expect(
      within(footer)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/about', '/privacy-policy', '/terms']);
  });

  it("links to the visitor's gifts from the header once the browser has some, and not before", async () => {
    await renderApp('/').settled();
    expect(screen.getByRole('heading', { name: 'HomePage content' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Your gifts' })).toBeNull();

    act(() => rememberVisitorGifts(1));
    expect(screen.getByRole('link', { name: 'Your gifts' })).toHaveAttribute('href', '/game#your-gifts');
    act(() => rememberVisitorGifts(0));
    expect(screen.queryByRole('link', { name: 'Your gifts' })).toBeNull();
  });

  it('keeps the redeem layout free of the site navigation', async () => {
    await renderApp(`/redeem/${ID}`).settled();
    expect(screen.getByRole('heading', { name: 'RedeemPage content' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.getByRole('link', { name: /home/i })).toHaveAttribute('href', '/');
  });

  it('navigates client-side between remote pages', async () => {
    const { load, settled } = renderApp('/');
    await settled();
    await settled(() =>
      userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Play' })),
    );
    expect(screen.getByRole('heading', { name: 'GamePage content' })).toBeInTheDocument();
    expect(load).toHaveBeenLastCalledWith('gifts', 'GamePage');
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });
});

describe('error pages', () => {
  it('shows an unknown path as 404 with the exact message, inside the default layout', async () => {
    const { load, settled } = renderApp('/no-such-page');
    await settled();
    expect(screen.getByText('Page not found: /no-such-page')).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(layout()).toBe('default');
    expect(load).not.toHaveBeenCalled();
  });

  it('rejects a malformed id before any remote request', async () => {
    const { load, settled } = renderApp('/gifts/not-an-id');
    await settled();
    expect(screen.getByText('Page Not Found: /gifts/not-an-id')).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(layout()).toBe('no-footer');
    expect(load).not.toHaveBeenCalled();
  });

  it('shows a hostile path as text', async () => {
    await renderApp('/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E').settled();
    expect(screen.getByText('Page not found: /<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(document.querySelector('main img')).toBeNull();
  });

  it('shows a render error as the generic 500 page, and "Back to home" clears it', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { settled } = renderApp('/about', {
      load: async (_remote, module) => {
        if (module === 'AboutPage') {
          return function Broken(): never {
            throw new Error('the about page broke');
          };
        }
        return pageNamed(`${module} content`);
      },
    });
    await settled();
    expect(screen.getByText('the about page broke')).toBeInTheDocument();
    expect(screen.getByText('500')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument();
    await settled(() => userEvent.click(screen.getByRole('link', { name: 'Back to home' })));
    expect(screen.getByRole('heading', { name: 'HomePage content' })).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it('uses the status of an HttpError a page throws', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { settled } = renderApp(`/gifts/${ID}`, {
      load: async () =>
        function Missing(): never {
          throw Object.assign(new Error('This gift does not exist'), { statusCode: 404 });
        },
    });
    await settled();
    expect(screen.getByText('This gift does not exist')).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(layout()).toBe('no-footer');
    // The tab says what the page does, not the gift page's own title.
    expect(document.title).toBe('Page not found · Gift Box');
    consoleError.mockRestore();
  });
});

describe('a remote that fails to load', () => {
  it('keeps a prerendered page’s text, with a note and a retry that loads it anew', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const remote = remoteFailingAtFirst();
    const { remotes, settled } = renderApp('/about', {
      load: remote.load,
      prerendered: {
        pathname: '/about',
        content: mainContent('<article><h1>About Gift Box</h1><p>Last good text.</p></article>'),
      },
    });
    await settled();
    expect(screen.getByRole('heading', { name: 'About Gift Box' })).toBeInTheDocument();
    expect(screen.getByText('Last good text.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Part of this page didn’t load, so it may not be up to date.');
    expect(screen.queryByText('500')).toBeNull();
    expect(layout()).toBe('default');

    remote.fix();
    await interact(() => userEvent.click(screen.getByRole('button', { name: 'Try again' })));
    await settled(async () => remote.arrive());
    expect(screen.getByRole('heading', { name: 'AboutPage content' })).toBeInTheDocument();
    expect(screen.queryByText('Last good text.')).toBeNull();
    expect(remotes.reset).toHaveBeenCalledWith('content');
    consoleError.mockRestore();
  });

  it('puts the prerendered page back as the nodes it was, never through HTML parsed again', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    // Text that turns into markup if serialised and parsed again (mutation XSS): a noscript
    // element's text is written raw, and its end tag inside it closes it on the way back.
    const main = document.createElement('main');
    main.innerHTML = '<h1>About Gift Box</h1>';
    const noscript = document.createElement('noscript');
    noscript.textContent = '<p title="</noscript><img src=x onerror=window.__keptRan=1>">';
    main.append(noscript);
    const parsedAgain = document.createElement('div');
    parsedAgain.innerHTML = main.innerHTML;
    expect(parsedAgain.querySelector('img')).not.toBeNull();
    const holder = document.createElement('div');
    holder.append(main);

    await renderApp('/about', {
      load: () => Promise.reject(new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources.')),
      prerendered: { pathname: '/about', content: keptContent(holder) },
    }).settled();
    expect(screen.getByRole('heading', { name: 'About Gift Box' })).toBeInTheDocument();
    const kept = document.querySelector('.p-kept-page') as HTMLElement;
    expect(kept.querySelector('img')).toBeNull();
    expect(kept.querySelector('noscript')?.textContent).toBe(noscript.textContent);
    consoleError.mockRestore();
  });

  it('shows the error, not a prerendered page, on another path', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderApp('/terms', {
      load: () => Promise.reject(new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources.')),
      prerendered: { pathname: '/about', content: mainContent('<h1>About Gift Box</h1>') },
    }).settled();
    expect(screen.getByText(/The content remote could not load TermsPage/)).toBeInTheDocument();
    expect(screen.queryByText('About Gift Box')).toBeNull();
    consoleError.mockRestore();
  });

  it('reloads through the guard instead of showing an error', async () => {
    const { firstReload } = renderApp('/game', {
      load: () => Promise.reject(new RemoteTimeoutError('gifts', 'GamePage', 10)),
      reloadOnce: () => true,
    });
    expect(await firstReload()).toEqual(['/game', expect.any(Number)]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says in plain words that this part is unavailable, inside the layout, with the detail collapsed and a retry that loads it anew', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const remote = remoteFailingAtFirst();
    const { remotes, settled } = renderApp('/game', { load: remote.load });
    await settled();
    const heading = screen.getByRole('heading', { name: 'This part of the site is unavailable right now' });
    const alert = screen.getByRole('alert');
    expect(alert).toContainElement(heading);
    // No code, remote or module in what a visitor reads; all of it behind "Details", closed.
    const details = within(alert).getByText('Details').closest('details');
    expect(details).not.toBeNull();
    expect(details?.open).toBe(false);
    expect(details).toHaveTextContent(
      'The gifts remote could not load GamePage: its entry script could not be loaded (RUNTIME-008).',
    );
    const visible = (alert.textContent ?? '').replace(details?.textContent ?? '', '');
    expect(visible).not.toMatch(/RUNTIME|gifts|GamePage|500|Internal Server Error/);
    expect(consoleError).toHaveBeenCalledWith(expect.objectContaining({ name: 'RemoteLoadError' }));
    expect(document.title).toBe('Unavailable right now · Gift Box');
    expect(layout()).toBe('default');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();

    remote.fix();
    await interact(() => userEvent.click(screen.getByRole('button', { name: 'Try again' })));
    await settled(async () => remote.arrive());
    expect(screen.getByRole('heading', { name: 'GamePage content' })).toBeInTheDocument();
    expect(remotes.reset).toHaveBeenCalledWith('gifts');
    consoleError.mockRestore();
  });

  it('does not reload for a page the visitor has already left', async () => {
    let failGame: (error: Error) => void = () => undefined;
    const { reloadOnce, settled } = renderApp('/', {
      load: (remote, module) =>
        remote === 'gifts'
          ? new Promise((_, reject) => {
              failGame = reject;
            })
          : Promise.resolve(pageNamed(`${module} content`)),
    });
    await settled();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await settled(async () => {
      await userEvent.click(within(nav).getByRole('link', { name: 'Play' }));
      await userEvent.click(within(nav).getByRole('link', { name: 'About' }));
    });
    expect(screen.getByRole('heading', { name: 'AboutPage content' })).toBeInTheDocument();
    await act(async () => failGame(new RemoteTimeoutError('gifts', 'GamePage', 10)));
    expect(reloadOnce).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'AboutPage content' })).toBeInTheDocument();
  });

  it('sends a chunk that fails while a page renders through the guard too', async () => {
    const chunkError = Object.assign(new Error('Loading chunk 12 failed.'), { name: 'ChunkLoadError' });
    const { reloadOnce, settled } = renderApp('/about', {
      load: async () =>
        function LazyPart(): never {
          throw chunkError;
        },
      reloadOnce: () => true,
    });
    await settled();
    expect(reloadOnce).toHaveBeenCalledWith('/about');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does not reload for a failed API request a page throws: it shows the error', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { reloadOnce, settled } = renderApp('/game', {
      load: async () =>
        function Offline(): never {
          throw new TypeError('Failed to fetch');
        },
    });
    await settled();
    expect(screen.getByText('Failed to fetch')).toBeInTheDocument();
    expect(reloadOnce).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('keeps other routes working', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { settled } = renderApp('/game', {
      load: async (remote, module) => {
        if (remote === 'gifts') throw new Error('RUNTIME-003 manifest unreachable');
        return pageNamed(`${module} content`);
      },
    });
    await settled();
    expect(screen.getByText(/The gifts remote could not load GamePage/)).toBeInTheDocument();
    await settled(() =>
      userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'About' })),
    );
    expect(screen.getByRole('heading', { name: 'AboutPage content' })).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it('shows the progress bar while a remote page loads', async () => {
    let finish: () => void = () => undefined;
    const { settled } = renderApp('/', {
      load: (_remote, module) =>
        new Promise((resolve) => {
          finish = () => resolve(pageNamed(`${module} content`));
        }),
    });
    expect(screen.getByRole('progressbar', { name: 'Loading page' })).toBeInTheDocument();
    await settled(async () => finish());
    expect(screen.getByRole('heading', { name: 'HomePage content' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
  it('shows the progress bar while the page waits for the service, and hides it once answered', async () => {
    const { apiActivity, settled } = renderApp('/');
    await settled();
    expect(screen.queryByRole('progressbar')).toBeNull();

    let end: () => void = () => undefined;
    act(() => {
      end = apiActivity.begin();
    });
    expect(screen.getByRole('progressbar', { name: 'Waiting for the service' })).toBeInTheDocument();
    act(() => end());
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('"Try again" as a browser runs it', () => {
  /**
   * Clicks outside act, as in a browser: the router's updates reach React as transitions, so a
   * retry whose page is at hand (its code cached, its loader done in microtasks) ends before
   * React draws its loading state. Then waits, inside act, until the router and React are done.
   * The error must clear all the same.
   */
  async function clickUnwrapped(button: HTMLElement, settled: () => Promise<void>): Promise<void> {
    button.click();
    await settled();
  }

  it('shows the page after a 500 its page threw, and Back still leads to the page before', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let broken = true;
    const { remotes, router, settled } = renderApp('/', {
      load: async (_remote, module) =>
        function Page() {
          // The gift page fails as after a failed API call; its code is at hand for the retry.
          if (module === 'GiftPage' && broken) throw new Error('Internal Server Error');
          return <h1>{`${module} content`}</h1>;
        },
    });
    await settled();
    await settled(() => router.navigate(`/gifts/${ID}`));
    expect(screen.getByText('500')).toBeInTheDocument();

    broken = false;
    await clickUnwrapped(screen.getByRole('button', { name: 'Try again' }), settled);
    expect(screen.getByRole('heading', { name: 'GiftPage content' })).toBeInTheDocument();
    expect(screen.queryByText('500')).toBeNull();
    expect(remotes.reset).not.toHaveBeenCalled();
    // The retry took the error's place in the history, it did not add an entry.
    await settled(() => router.navigate(-1));
    expect(screen.getByRole('heading', { name: 'HomePage content' })).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it('shows the page after its remote failed to load, once the remote loads at once', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let fixed = false;
    const { remotes, settled } = renderApp('/game', {
      load: async (_remote, module) => {
        if (!fixed) throw new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources.');
        return pageNamed(`${module} content`);
      },
    });
    await settled();
    expect(screen.getByRole('heading', { name: 'This part of the site is unavailable right now' })).toBeInTheDocument();

    fixed = true;
    await clickUnwrapped(screen.getByRole('button', { name: 'Try again' }), settled);
    expect(screen.getByRole('heading', { name: 'GamePage content' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(remotes.reset).toHaveBeenCalledWith('gifts');
    consoleError.mockRestore();
  });
});

describe('new deployments', () => {
  it('navigates client-side while the build is current, and with a full load of the target once it is not', async () => {
    let stale = false;
    const { fullLoad, settled, firstFullLoad } = renderApp('/', { isStale: () => stale });
    await settled();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await settled(() => userEvent.click(within(nav).getByRole('link', { name: 'About' })));
    expect(screen.getByRole('heading', { name: 'AboutPage content' })).toBeInTheDocument();
    expect(fullLoad).not.toHaveBeenCalled();

    stale = true;
    await userEvent.click(within(nav).getByRole('link', { name: 'Terms' }));
    expect(await firstFullLoad()).toEqual(['/terms']);
    expect(screen.queryByRole('heading', { name: 'TermsPage content' })).toBeNull();
  });

  it('keeps the query string of the target', async () => {
    const { firstFullLoad, load } = renderApp('/terms?ref=mail', { isStale: () => true });
    expect(await firstFullLoad()).toEqual(['/terms?ref=mail']);
    expect(load).not.toHaveBeenCalled();
  });
});
