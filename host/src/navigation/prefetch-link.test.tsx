import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { createRequestActivity } from 'shared/browser/api/activity';
import { AppServicesContext, type AppServices } from '../app-services';
import { RouteTable } from '../route-table/route-table';
import { createContentSignal, FirstContentContext, type ContentSignal } from './first-content';
import { PrefetchLink } from './prefetch-link';
import { versionCheckStub } from '../test-utils';

/** jsdom has no IntersectionObserver: this one reports what the test says is in view. */
class FakeIntersectionObserver {
  static current: FakeIntersectionObserver[] = [];
  readonly observed = new Set<Element>();

  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.current.push(this);
  }

  observe(element: Element) {
    this.observed.add(element);
  }

  disconnect() {
    this.observed.clear();
  }

  static show(element: Element, isIntersecting = true) {
    for (const observer of FakeIntersectionObserver.current) {
      if (!observer.observed.has(element)) continue;
      const entry = { target: element, isIntersecting } as IntersectionObserverEntry;
      observer.callback([entry], observer as unknown as IntersectionObserver);
    }
  }
}

const testWindow = window as unknown as Record<'IntersectionObserver' | 'requestIdleCallback', unknown>;

beforeEach(() => {
  FakeIntersectionObserver.current = [];
  testWindow.IntersectionObserver = FakeIntersectionObserver;
  testWindow.requestIdleCallback = (callback: () => void) => callback();
});

afterEach(() => {
  delete testWindow.IntersectionObserver;
  delete testWindow.requestIdleCallback;
});

function renderLink(firstContent: ContentSignal) {
  const prefetch = jest.fn();
  const services = {
    routes: RouteTable.registry(),
    remotes: { load: jest.fn(), prefetch, warm: jest.fn(), reset: jest.fn(), buildOf: () => undefined },
    versionCheck: versionCheckStub(),
    fullLoad: jest.fn(),
    reloadOnce: () => false,
    apiActivity: createRequestActivity(),
  } satisfies AppServices;
  render(
    <MemoryRouter>
      <AppServicesContext.Provider value={services}>
        <FirstContentContext.Provider value={firstContent}>
          <PrefetchLink to="/game">Play</PrefetchLink>
        </FirstContentContext.Provider>
      </AppServicesContext.Provider>
    </MemoryRouter>,
  );
  return { prefetch, link: screen.getByRole('link', { name: 'Play' }) };
}

describe('PrefetchLink', () => {
  it("prefetches a visible link's remote entry only once the route's page is on screen", async () => {
    const firstContent = createContentSignal();
    const { prefetch, link } = renderLink(firstContent);
    FakeIntersectionObserver.show(link);
    await act(async () => undefined);
    expect(prefetch).not.toHaveBeenCalled();

    await act(async () => firstContent.markShown());
    FakeIntersectionObserver.show(link);
    expect(prefetch).toHaveBeenCalledTimes(1);
    expect(prefetch).toHaveBeenCalledWith('gifts');
  });

  it('does not prefetch a link the page has pushed out of view', async () => {
    const firstContent = createContentSignal();
    const { prefetch, link } = renderLink(firstContent);
    await act(async () => firstContent.markShown());
    FakeIntersectionObserver.show(link, false);
    expect(prefetch).not.toHaveBeenCalled();
  });
});
