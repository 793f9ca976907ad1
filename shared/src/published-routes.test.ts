import {
  manifestPublishedRoutes,
  PUBLISHED_ROUTES_LIMITS,
  PUBLISHED_ROUTES_VERSION,
  pathPatternProblem,
  publishedRoutesOf,
  readPublishedRoutes,
} from './published-routes';
import { telemetryBatchSchema } from './api/contract';
import { REMOTE_NAMES, REMOTES, type RemoteSpec, type RouteSpec } from './remotes';

const NEWS: RouteSpec = { path: '/news', layout: 'default', title: 'News' };

function documentWith(exposes: Record<string, unknown>, remote = 'news'): unknown {
  return { version: PUBLISHED_ROUTES_VERSION, remote, exposes };
}

function onlyRoute(route: unknown) {
  return readPublishedRoutes(documentWith({ NewsPage: { routes: [route] } }));
}

describe('publishedRoutesOf', () => {
  it.each(REMOTE_NAMES)('publishes every exposed module of %s with its registry routes', (name) => {
    const document = publishedRoutesOf(name, REMOTES[name]);
    expect(document.version).toBe(1);
    expect(document.remote).toBe(name);
    expect(Object.keys(document.exposes)).toEqual(Object.keys(REMOTES[name].exposes));
    for (const [module, { routes }] of Object.entries(REMOTES[name].exposes))
      expect(document.exposes[module]?.routes).toEqual(routes);
  });

  it.each(REMOTE_NAMES)('reads back whole: every route of %s is accepted, none refused', (name) => {
    const document = JSON.parse(JSON.stringify(publishedRoutesOf(name, REMOTES[name]))) as unknown;
    const reading = readPublishedRoutes(document, { remote: name });
    const registered = Object.entries((REMOTES[name] as RemoteSpec).exposes).flatMap(([module, { routes }]) =>
      routes.map((route) => ({ module, ...route })),
    );
    expect(reading).toEqual({ remote: name, routes: registered, refusals: [] });
  });
});

describe('readPublishedRoutes: the document', () => {
  it.each([
    ['not an object', null, /not an object/],
    ['a list', [], /not an object/],
    ['of another version', { version: 2, remote: 'news', exposes: {} }, /version 2 is not 1/],
    ['without a version', { remote: 'news', exposes: {} }, /version undefined is not 1/],
    ['with a remote name that is none', { version: 1, remote: 'News!', exposes: {} }, /no remote name/],
    ['without exposes', { version: 1, remote: 'news' }, /exposes is not an object/],
  ])('refuses a document %s whole, with one reason', (_what, document, reason) => {
    const reading = readPublishedRoutes(document);
    expect(reading.routes).toEqual([]);
    expect(reading.refusals).toEqual([{ reason: expect.stringMatching(reason) as string }]);
  });

  it('refuses a document of another remote than the one it was configured as', () => {
    const reading = readPublishedRoutes(documentWith({ NewsPage: { routes: [NEWS] } }, 'gifts'), { remote: 'news' });
    expect(reading.routes).toEqual([]);
    expect(reading.refusals[0]?.reason).toBe('the routes document is of the remote "gifts", not of "news"');
  });

  it('accepts a module with no routes, one the host loads but does not route to', () => {
    expect(readPublishedRoutes(documentWith({ Widget: { routes: [] } }))).toEqual({
      remote: 'news',
      routes: [],
      refusals: [],
    });
  });

  it('leaves out a module without a routes list, or with a name no module has, and keeps the others', () => {
    const reading = readPublishedRoutes(
      documentWith({ Broken: {}, 'bad name': { routes: [NEWS] }, NewsPage: { routes: [NEWS] } }),
    );
    expect(reading.routes).toEqual([{ module: 'NewsPage', ...NEWS }]);
    expect(reading.refusals).toEqual([
      { module: 'Broken', reason: 'the module Broken gives no routes list' },
      { module: 'bad name', reason: 'the module name "bad name" is no exposed module\'s name' },
    ]);
  });
});

describe('readPublishedRoutes: each route', () => {
  it('keeps every flag the host knows and nothing else the document says', () => {
    const route = {
      path: '/news/:giftId',
      layout: 'no-footer',
      title: 'A story',
      validator: 'giftId',
      serverData: 'gift',
      noindex: true,
      prerendered: false,
      script: 'alert(1)',
    };
    const { script: _ignored, ...known } = route;
    expect(onlyRoute(route)).toEqual({ remote: 'news', routes: [{ module: 'NewsPage', ...known }], refusals: [] });
  });

  it.each([
    [
      'an unknown layout',
      { ...NEWS, layout: 'wide' },
      'its layout "wide" is not one this host knows (default, no-footer, redeem)',
    ],
    [
      'no layout',
      { path: '/news', title: 'News' },
      'its layout undefined is not one this host knows (default, no-footer, redeem)',
    ],
    [
      'an unknown validator',
      { ...NEWS, path: '/news/:id', validator: 'storyId' },
      'its validator "storyId" is not one this host knows (giftId, redeemId)',
    ],
    [
      'a validator of a parameter the path lacks',
      { ...NEWS, validator: 'giftId' },
      'its validator giftId checks the parameter :giftId, which its path does not have',
    ],
    [
      'an unknown server data query',
      { ...NEWS, serverData: 'news' },
      'its server data query "news" is not one this host knows (gift, redeem)',
    ],
    ['a flag that is not a boolean', { ...NEWS, noindex: 'yes' }, 'its noindex "yes" is not true or false'],
    ['a prerendered flag that is not a boolean', { ...NEWS, prerendered: 1 }, 'its prerendered 1 is not true or false'],
    ['an empty title', { ...NEWS, title: ' ' }, 'its title " " is not one line of text'],
    ['a title of two lines', { ...NEWS, title: 'News\nmore' }, 'its title "News\\nmore" is not one line of text'],
    ['a title too long', { ...NEWS, title: 'x'.repeat(81) }, 'its title is longer than 80 characters'],
  ])('refuses a route with %s, saying why', (_what, route, reason) => {
    const reading = onlyRoute(route);
    expect(reading.routes).toEqual([]);
    expect(reading.refusals).toEqual([{ module: 'NewsPage', path: (route as { path?: string }).path, reason }]);
  });

  it('refuses an entry that is no route object', () => {
    expect(onlyRoute('/news').refusals).toEqual([{ module: 'NewsPage', reason: 'the route is not an object' }]);
  });

  it('takes the layouts, validators and queries from the host it runs in', () => {
    const route = { ...NEWS, path: '/news/:storyId', layout: 'wide', validator: 'storyId', serverData: 'story' };
    const document = documentWith({ NewsPage: { routes: [route] } });
    expect(readPublishedRoutes(document).refusals).toHaveLength(1);
    const reading = readPublishedRoutes(document, {
      layouts: ['wide'],
      validators: ['storyId'],
      serverData: ['story'],
    });
    expect(reading).toEqual({ remote: 'news', routes: [{ module: 'NewsPage', ...route }], refusals: [] });
  });

  it('keeps the first route of a path the remote publishes twice and refuses the second', () => {
    const reading = readPublishedRoutes(
      documentWith({ NewsPage: { routes: [NEWS] }, OtherPage: { routes: [{ ...NEWS, title: 'Other' }] } }),
    );
    expect(reading.routes).toEqual([{ module: 'NewsPage', ...NEWS }]);
    expect(reading.refusals).toEqual([
      { module: 'OtherPage', path: '/news', reason: 'an earlier route of the remote has its path' },
    ]);
  });

  it('leaves out a bad route alone: the remote keeps its other routes', () => {
    const reading = readPublishedRoutes(
      documentWith({
        NewsPage: {
          routes: [
            { ...NEWS, layout: 'wide' },
            { ...NEWS, path: '/news/latest' },
          ],
        },
      }),
    );
    expect(reading.routes.map((route) => route.path)).toEqual(['/news/latest']);
    expect(reading.refusals.map((refusal) => refusal.path)).toEqual(['/news']);
  });
});

describe('readPublishedRoutes: bounds', () => {
  it(`keeps at most ${PUBLISHED_ROUTES_LIMITS.routes} routes of a remote and refuses the rest`, () => {
    const routes = Array.from({ length: 35 }, (_, index) => ({ ...NEWS, path: `/news/${index}` }));
    const reading = readPublishedRoutes(documentWith({ NewsPage: { routes } }));
    expect(reading.routes).toHaveLength(PUBLISHED_ROUTES_LIMITS.routes);
    expect(reading.refusals).toHaveLength(3);
    expect(reading.refusals[0]).toEqual({ module: 'NewsPage', path: '/news/32', reason: 'more than 32 routes' });
  });

  it('reports a bounded number of refusals, however many routes a document holds', () => {
    const routes = Array.from({ length: 10_000 }, (_, index) => ({ ...NEWS, path: `/news/${index}`, layout: 'x' }));
    const reading = readPublishedRoutes(documentWith({ NewsPage: { routes } }));
    expect(reading.routes).toEqual([]);
    expect(reading.refusals).toHaveLength(PUBLISHED_ROUTES_LIMITS.refusals + 1);
    expect(reading.refusals.at(-1)).toEqual({
      reason: `${10_000 - PUBLISHED_ROUTES_LIMITS.refusals} more refusals not listed`,
    });
  });

  it(`reads at most ${PUBLISHED_ROUTES_LIMITS.modules} exposed modules`, () => {
    const exposes = Object.fromEntries(Array.from({ length: 70 }, (_, index) => [`Page${index}`, { routes: [] }]));
    const reading = readPublishedRoutes(documentWith(exposes));
    expect(reading.refusals).toEqual([{ reason: 'more than 64 exposed modules: the rest are left out' }]);
  });

  it('quotes a long value in a reason shortened', () => {
    const [refusal] = onlyRoute({ ...NEWS, layout: 'w'.repeat(5000) }).refusals;
    expect(refusal?.reason.length).toBeLessThan(200);
  });
});

describe('pathPatternProblem', () => {
  it.each(['/', '/news', '/gifts/:giftId', '/a/b-c/d_e.f~g', '/news/:section/:storyId'])('accepts %s', (path) => {
    expect(pathPatternProblem(path)).toBeUndefined();
  });

  it.each([
    ['news', /must start with "\/"/],
    ['/news/', /not end with one/],
    ['//news', /has the segment ""/],
    ['/news/*', /has the segment "\*"/],
    ['/news/:id?', /has the segment ":id\?"/],
    ['/news/:', /has the segment ":"/],
    ['/news/a b', /has the segment "a b"/],
    ['/news/%2e%2e', /has the segment/],
    ['/news/../admin', /has the segment "\.\."/],
    ['/news/.', /has the segment "\."/],
    ['/:id/:id', /names :id twice/],
    [`/${'n'.repeat(PUBLISHED_ROUTES_LIMITS.pathLength)}`, /longer than 128 characters/],
    [42, /is not a string/],
  ])('refuses %s', (path, reason) => {
    expect(pathPatternProblem(path)).toMatch(reason);
  });

  it("accepts a path as long as the API's telemetry takes as a route label, so its events are never refused", () => {
    const longest = `/${'n'.repeat(PUBLISHED_ROUTES_LIMITS.pathLength - 1)}`;
    expect(pathPatternProblem(longest)).toBeUndefined();
    const batch = { host: 'h1', events: [{ kind: 'reload', route: longest, remote: 'news', build: 'b1' }] };
    expect(telemetryBatchSchema.safeParse(batch).error).toBeUndefined();
  });
});

describe('manifestPublishedRoutes', () => {
  it("reads the manifest's routes field", () => {
    const manifest = { id: 'news', metaData: {}, exposes: [], routes: documentWith({ NewsPage: { routes: [NEWS] } }) };
    expect(manifestPublishedRoutes(manifest, { remote: 'news' })).toEqual({
      remote: 'news',
      routes: [{ module: 'NewsPage', ...NEWS }],
      refusals: [],
    });
  });

  it('gives nothing for a manifest built before remotes published their routes', () => {
    expect(manifestPublishedRoutes({ id: 'news', metaData: {}, exposes: [] })).toBeUndefined();
    expect(manifestPublishedRoutes(null)).toBeUndefined();
  });

  it('refuses a routes field that is no document, with its reason', () => {
    expect(manifestPublishedRoutes({ routes: '/news' })?.refusals).toEqual([
      { reason: 'the routes document is not an object' },
    ]);
  });
});
