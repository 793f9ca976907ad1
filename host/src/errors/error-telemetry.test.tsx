import { screen } from '@testing-library/react';
import { telemetryEventSchema } from 'shared/api/contract';
import type { TelemetryEvent } from 'shared/telemetry';
import { createLoadPhases } from '../telemetry/load-phases';
import { createPageTelemetry } from '../telemetry/page-telemetry';
import { createBuildAttribution } from '../telemetry/build-attribution';
import { pageNamed, renderApp, type LoadImpl } from '../test-utils';
import { REMOTE_NAMES } from 'shared/remotes';
import { RouteTable } from '../route-table/route-table';

const GIFT_ID = 'Zx9_-aBcDeFgHiJkLmNoPqRs';
const GIFTS = 'https://gifts.example.com/v41/';
const CONTENT = 'https://content.example.com/v3/';

/** The page's telemetry as the app makes it, after the gifts and content remotes' manifests were read. */
function recording() {
  const events: TelemetryEvent[] = [];
  const builds = createBuildAttribution('host-b7', REMOTE_NAMES);
  builds.record('gifts', GIFTS, 'g-41', new Map());
  builds.record('content', CONTENT, 'c-3', new Map());
  const fetchStub = jest.fn(() => Promise.reject(new TypeError('Failed to fetch')));
  const telemetry = createPageTelemetry({
    // Each as the API's contract takes it.
    record: (event) => events.push(telemetryEventSchema.parse(event) as TelemetryEvent),
    builds,
    routes: RouteTable.registry(),
    phases: createLoadPhases(),
    fetch: fetchStub,
  });
  return { telemetry, events };
}

/**
 * The app at `path` with that telemetry, once its router has settled: React has rendered the
 * page (or its error) and run its effects, which report, so the events are all there.
 */
async function renderWith(
  path: string,
  options: { load?: LoadImpl; reloadOnce?: (path: string) => boolean } = {},
): Promise<TelemetryEvent[]> {
  const { telemetry, events } = recording();
  await renderApp(path, { ...options, telemetry }).settled();
  return events;
}

const throwing =
  (error: unknown): LoadImpl =>
  async () =>
    function BrokenPage(): never {
      throw error;
    };

const chunkError = (url: string) =>
  Object.assign(new Error(`Loading chunk 7 failed.\n(error: ${url})`), { name: 'ChunkLoadError', type: 'error' });

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('error page events', () => {
  it('reports a path no route matches as the host’s 404 on "*", once', async () => {
    const events = await renderWith('/no-such-page/with/an/id/Zx9_-aBcDeFgHiJkLmNoPqRs');
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(events).toEqual([{ kind: 'error-page', route: '*', status: 404, remote: 'host', build: 'host-b7' }]);
  });

  it('reports a malformed id by its route pattern, never the path', async () => {
    const events = await renderWith('/gifts/not-an-id');
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(events).toEqual([
      { kind: 'error-page', route: '/gifts/:giftId', status: 404, remote: 'gifts', build: 'g-41' },
    ]);
  });

  it('reports a remote that could not be loaded as its route’s 500, leaving the load itself to the loader', async () => {
    const events = await renderWith(`/gifts/${GIFT_ID}`, {
      load: () => Promise.reject(new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources.')),
    });
    expect(screen.getByRole('heading', { name: 'This part of the site is unavailable right now' })).toBeInTheDocument();
    expect(events).toEqual([
      { kind: 'error-page', route: '/gifts/:giftId', status: 500, remote: 'gifts', build: 'g-41' },
    ]);
  });

  it('reports a page that threw while rendering as its remote’s failed render, and the error page', async () => {
    const events = await renderWith('/game', { load: throwing(new TypeError('boxes.map is not a function')) });
    expect(screen.getByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument();
    expect(events).toEqual([
      { kind: 'load', remote: 'gifts', build: 'g-41', phase: 'render', outcome: 'failed', ms: 0 },
      { kind: 'error-page', route: '/game', status: 500, remote: 'gifts', build: 'g-41' },
    ]);
  });

  it('does not count a 4xx a page throws (a gift that does not exist) as its remote failing', async () => {
    const notFound = Object.assign(new Error('This gift does not exist'), { statusCode: 404 });
    const events = await renderWith(`/gifts/${GIFT_ID}`, { load: throwing(notFound) });
    expect(screen.getByText('This gift does not exist')).toBeInTheDocument();
    expect(events).toEqual([
      { kind: 'error-page', route: '/gifts/:giftId', status: 404, remote: 'gifts', build: 'g-41' },
    ]);
  });
});

describe('chunk failures while a page renders', () => {
  it('reports the chunk’s remote (by its URL) and build, and no error page while the guard reloads', async () => {
    const reloadOnce = jest.fn(() => true);
    const events = await renderWith('/about', { load: throwing(chunkError(`${CONTENT}7.a1b2.js`)), reloadOnce });
    expect(reloadOnce).toHaveBeenCalledWith('/about');
    expect(events).toEqual([
      { kind: 'load', remote: 'content', build: 'c-3', phase: 'chunk', outcome: 'failed', ms: 0 },
    ]);
  });

  it('reports the error page too once the guard will not reload again', async () => {
    const events = await renderWith('/game', {
      load: throwing(chunkError(`${CONTENT}12.c3d4.js`)),
      reloadOnce: () => false,
    });
    expect(screen.getByRole('heading', { name: 'This part of the site is unavailable right now' })).toBeInTheDocument();
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        { kind: 'error-page', route: '/game', status: 500, remote: 'gifts', build: 'g-41' },
        { kind: 'load', remote: 'content', build: 'c-3', phase: 'chunk', outcome: 'failed', ms: 0 },
      ]),
    );
  });

  it("counts a chunk at no known remote's address as the page's own remote", async () => {
    const events = await renderWith('/game', {
      load: throwing(chunkError('https://elsewhere.example/9.js')),
      reloadOnce: () => true,
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'load', remote: 'gifts', build: 'g-41', phase: 'chunk' });
  });
});

describe("a remote's part of the page", () => {
  it('is marked with the remote, around its page', async () => {
    await renderApp('/game', { load: async () => pageNamed('The game') }).settled();
    const heading = screen.getByRole('heading', { name: 'The game' });
    expect(heading.closest('[data-part]')?.getAttribute('data-part')).toBe('gifts');
    expect(screen.getByRole('banner').closest('[data-part]')).toBeNull();
  });
});

describe('reload events', () => {
  it('name the route pattern, its remote and build, never the path', () => {
    const { telemetry, events } = recording();
    telemetry.reloaded(`/gifts/${GIFT_ID}?from=email`);
    telemetry.reloaded('/no-such-page');
    expect(events).toEqual([
      { kind: 'reload', route: '/gifts/:giftId', remote: 'gifts', build: 'g-41' },
      { kind: 'reload', route: '*', remote: 'host', build: 'host-b7' },
    ]);
  });
});
