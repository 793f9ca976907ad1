/**
 * The routes with a version check that asks for the visitor's builds on each navigation, and
 * after a remote's page threw while rendering (version-check.ts): a navigation whose check finds
 * other builds is a full load of its target, from any page, the in-layout error page included,
 * the check asked beside the route's code; a page that threw on a build the visitor is no longer
 * given is loaded anew, and one they are still given shows the error page.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { interact, pageNamed, renderApp, type LoadImpl } from '../test-utils';

/** Remote pages named after their module; `broken`'s throws while rendering. */
function pagesWithBroken(broken: string): LoadImpl {
  return async (_remote, module) => {
    if (module !== broken) return pageNamed(`${module} content`);
    return function Broken(): never {
      throw new Error(`the ${module} broke`);
    };
  };
}

/** A promise and its resolve, for an answer the test gives when it chooses. */
function later<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

describe('a check on each navigation', () => {
  it("asks beside the route's code, and is a full load of the target once the visitor's builds changed", async () => {
    const answer = later<boolean>();
    let asking = false;
    const checkNavigation = jest.fn(() => (asking ? answer.promise : Promise.resolve(false)));
    const { settled, load, fullLoad, firstFullLoad } = renderApp('/', { versionCheck: { checkNavigation } });
    await settled();
    expect(screen.getByRole('heading', { name: 'HomePage content' })).toBeInTheDocument();

    asking = true;
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await interact(() => userEvent.click(within(nav).getByRole('link', { name: 'About' })));
    // The page's code is asked for while the check has not answered.
    expect(load).toHaveBeenCalledWith('content', 'AboutPage');
    expect(fullLoad).not.toHaveBeenCalled();

    await act(async () => answer.resolve(true));
    expect(await firstFullLoad()).toEqual(['/about']);
    expect(screen.queryByRole('heading', { name: 'AboutPage content' })).toBeNull();
  });

  it('navigates in the app while the check finds the same builds', async () => {
    const checkNavigation = jest.fn(async () => false);
    const { settled, fullLoad } = renderApp('/', { versionCheck: { checkNavigation } });
    await settled();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await settled(() => userEvent.click(within(nav).getByRole('link', { name: 'About' })));
    expect(screen.getByRole('heading', { name: 'AboutPage content' })).toBeInTheDocument();
    expect(checkNavigation).toHaveBeenCalledTimes(2);
    expect(fullLoad).not.toHaveBeenCalled();
  });

  it('takes the same path from the in-layout error page', async () => {
    let stale = false;
    const checkNavigation = jest.fn(async () => stale);
    const { settled, firstFullLoad } = renderApp('/about', {
      load: pagesWithBroken('AboutPage'),
      versionCheck: { checkNavigation },
    });
    await settled();
    expect(screen.getByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument();

    stale = true;
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await interact(() => userEvent.click(within(nav).getByRole('link', { name: 'Terms' })));
    expect(await firstFullLoad()).toEqual(['/terms']);
  });

  it('turns a path no route matches into a full load too', async () => {
    const { firstFullLoad } = renderApp('/no-such-page?x=1', { versionCheck: { checkNavigation: async () => true } });
    expect(await firstFullLoad()).toEqual(['/no-such-page?x=1']);
  });
});

describe("a remote's page that throws while rendering", () => {
  it('is loaded anew when the visitor is given another build of its remote now: no error page', async () => {
    const leaveThrowingBuild = jest.fn(async () => true);
    const { settled, firstFullLoad } = renderApp('/about?from=mail', {
      load: pagesWithBroken('AboutPage'),
      versionCheck: { followsBuilds: () => true, leaveThrowingBuild },
      builds: { content: 'c2' },
    });
    await settled();
    expect(await firstFullLoad()).toEqual(['/about?from=mail']);
    expect(leaveThrowingBuild).toHaveBeenCalledTimes(1);
    expect(leaveThrowingBuild).toHaveBeenCalledWith('content', 'c2');
    expect(screen.queryByRole('heading', { name: 'Internal Server Error' })).toBeNull();
  });

  it('is loaded anew when its module throws as it runs, before any page of it rendered', async () => {
    const leaveThrowingBuild = jest.fn(async () => true);
    const { settled, firstFullLoad } = renderApp('/terms', {
      load: async () => {
        throw new Error('this build of the content remote is broken');
      },
      versionCheck: { followsBuilds: () => true, leaveThrowingBuild },
      builds: { content: 'c2' },
    });
    await settled();
    expect(await firstFullLoad()).toEqual(['/terms']);
    expect(leaveThrowingBuild).toHaveBeenCalledWith('content', 'c2');
  });

  it('shows the error page at once on a page whose builds the host’s server does not name', async () => {
    const leaveThrowingBuild = jest.fn(async () => true);
    const { settled } = renderApp('/about', {
      load: pagesWithBroken('AboutPage'),
      versionCheck: { followsBuilds: () => true, leaveThrowingBuild },
    });
    await settled();
    expect(screen.getByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument();
    expect(leaveThrowingBuild).not.toHaveBeenCalled();
  });

  it('shows the error page, logged, when the visitor is still given its build', async () => {
    const leaveThrowingBuild = jest.fn(async () => false);
    const { settled, fullLoad } = renderApp('/about', {
      load: pagesWithBroken('AboutPage'),
      versionCheck: { followsBuilds: () => true, leaveThrowingBuild },
      builds: { content: 'c2' },
    });
    await settled();
    await act(async () => undefined);
    expect(screen.getByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument();
    expect(leaveThrowingBuild).toHaveBeenCalledWith('content', 'c2');
    expect(consoleError).toHaveBeenCalledWith(expect.objectContaining({ message: 'the AboutPage broke' }));
    expect(fullLoad).not.toHaveBeenCalled();
  });

  it('asks nothing for an error that is not a page’s own render: a failed load, a 404', async () => {
    const leaveThrowingBuild = jest.fn(async () => true);
    const failing: LoadImpl = async () => {
      throw new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources.');
    };
    const { settled } = renderApp('/about', {
      load: failing,
      versionCheck: { followsBuilds: () => true, leaveThrowingBuild },
      builds: { content: 'c2' },
    });
    await settled();
    expect(screen.getByRole('heading', { name: 'This part of the site is unavailable right now' })).toBeInTheDocument();
    const notFound: LoadImpl = async () =>
      function Missing(): never {
        throw Object.assign(new Error('This gift does not exist'), { statusCode: 404 });
      } as ComponentType;
    const second = renderApp('/terms', {
      load: notFound,
      versionCheck: { followsBuilds: () => true, leaveThrowingBuild },
      builds: { content: 'c2' },
    });
    await second.settled();
    expect(leaveThrowingBuild).not.toHaveBeenCalled();
  });
});
