import { OTHER, NOT_FOUND_ROUTE, ROUTE_OWNERS } from 'shared/telemetry';
import { MAX_LEARNED_ROUTES } from 'shared/telemetry-labels';
import { KnownRoutes } from './known-routes';

it('labels the registry’s routes with the remote that owns them or the host, any other as other', () => {
  const known = KnownRoutes.compiled();
  for (const [route, owner] of ROUTE_OWNERS) {
    expect(known.routeLabel(route, owner)).toBe(route);
    expect(known.routeLabel(route, 'host')).toBe(route);
  }
  expect(known.routeLabel('/game', 'content')).toBe(OTHER);
  expect(known.routeLabel(NOT_FOUND_ROUTE, 'redeem')).toBe(OTHER);
  expect(known.routeLabel('/news', 'host')).toBe(OTHER);
  expect(known.routeLabel('/news', 'gifts')).toBe(OTHER);
  expect(known.anyRouteLabel('/game')).toBe('/game');
  expect(known.anyRouteLabel('/news')).toBe(OTHER);
});

it('knows the registry’s parts only', () => {
  const known = KnownRoutes.compiled();
  expect(['host', 'gifts', 'redeem', 'content'].map((name) => known.part(name))).toEqual([
    'host',
    'gifts',
    'redeem',
    'content',
  ]);
  expect(known.part('news')).toBeUndefined();
});

describe('a table of learned routes', () => {
  const route = (path: string, remote: string) => ({
    path,
    remote,
    module: 'Page',
    layout: 'default' as const,
    title: 'Page',
  });

  it('knows the configured remotes as parts, and labels their learned routes as themselves', () => {
    const known = new KnownRoutes(['news']);
    expect(known.learn([route('/news', 'news'), route('/about', 'content')])).toEqual([]);
    expect(known.part('news')).toBe('news');
    expect(known.part('blog')).toBeUndefined();
    expect(known.routeLabel('/news', 'news')).toBe('/news');
    expect(known.routeLabel('/news', 'host')).toBe('/news');
    expect(known.routeLabel('/news', 'content')).toBe(OTHER);
    expect(known.patternOfUrl('https://gifts.example.com/NEWS/')).toBe('/news');
  });

  it('keeps the registry’s routes whatever is learned, and forgets a route no longer published', () => {
    const known = new KnownRoutes(['news']);
    known.learn([route('/news', 'news')]);
    known.learn([route('/news/:storyId', 'news')]);
    expect(known.routeLabel('/news', 'news')).toBe(OTHER);
    expect(known.routeLabel('/news/:storyId', 'news')).toBe('/news/:storyId');
    for (const [path, owner] of ROUTE_OWNERS) expect(known.routeLabel(path, owner)).toBe(path);
  });

  it(`learns at most ${MAX_LEARNED_ROUTES} routes beyond the registry’s, in the order given, a registry path not among them`, () => {
    const known = new KnownRoutes(['news']);
    const paths = Array.from({ length: MAX_LEARNED_ROUTES + 2 }, (_, n) => `/news${n}`);
    const beyond = known.learn([route('/about', 'news'), ...paths.map((path) => route(path, 'news'))]);
    expect(beyond.map(({ path }) => path)).toEqual(paths.slice(MAX_LEARNED_ROUTES));
    expect(known.routeLabel('/about', 'news')).toBe('/about');
    expect(known.routeLabel(paths[MAX_LEARNED_ROUTES - 1] as string, 'news')).not.toBe(OTHER);
    expect(known.anyRouteLabel(paths[MAX_LEARNED_ROUTES] as string)).toBe(OTHER);
  });

  it('learns no route of a remote it is not configured with', () => {
    const known = new KnownRoutes();
    expect(known.learn([route('/news', 'news')])).toEqual([]);
    expect(known.anyRouteLabel('/news')).toBe(OTHER);
  });
});
