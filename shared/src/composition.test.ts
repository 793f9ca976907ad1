import { composeRoutes, grantsOf, pathShape, refusalText, registryRoutes, remoteVariable } from './composition';
import type { PublishedRoute } from './published-routes';

const route = (path: string, module = 'NewsPage'): PublishedRoute => ({
  path,
  module,
  layout: 'default',
  title: 'News',
});

describe('composeRoutes', () => {
  it('keeps the routes a remote was granted, beside the registry remotes, sorted by path', () => {
    const { routes, refusals } = composeRoutes([
      { remote: 'content', routes: registryRoutes('content'), grants: grantsOf({}, 'content') },
      {
        remote: 'news',
        routes: [route('/news'), route('/news/:storyId', 'StoryPage')],
        grants: ['/news', '/news/:storyId'],
      },
    ]);
    expect(refusals).toEqual([]);
    expect(routes.map(({ remote, path }) => `${remote} ${path}`)).toEqual([
      'content /',
      'content /about',
      'news /news',
      'news /news/:storyId',
      'content /privacy-policy',
      'content /terms',
    ]);
  });

  it('leaves out a path the remote was not granted, such as /, naming the variable that grants it', () => {
    const { routes, refusals } = composeRoutes([
      { remote: 'content', routes: registryRoutes('content'), grants: grantsOf({}, 'content') },
      { remote: 'news', routes: [route('/'), route('/about'), route('/news')], grants: ['/news'] },
    ]);
    expect(routes.filter((r) => r.remote === 'news').map((r) => r.path)).toEqual(['/news']);
    expect(routes.find((r) => r.path === '/')?.remote).toBe('content');
    expect(refusals.map(refusalText)).toEqual([
      "The news remote's route / (NewsPage) is left out: the path / is not granted to news (granted: /news; REMOTE_NEWS_PATHS, or routeGrants.news in a configuration file, grants paths)",
      "The news remote's route /about (NewsPage) is left out: the path /about is not granted to news (granted: /news; REMOTE_NEWS_PATHS, or routeGrants.news in a configuration file, grants paths)",
    ]);
  });

  it('gives a path of one shape to the first remote only, whatever the grants say', () => {
    const { routes, refusals } = composeRoutes([
      { remote: 'gifts', routes: registryRoutes('gifts'), grants: grantsOf({}, 'gifts') },
      { remote: 'news', routes: [route('/gifts/:id')], grants: ['/gifts/:id'] },
    ]);
    expect(routes.filter((r) => r.path.startsWith('/gifts')).map((r) => r.remote)).toEqual(['gifts']);
    expect(refusals[0]?.reason).toBe("the path /gifts/:id is already gifts's (GiftPage)");
  });

  it('takes a configured grant over the registry, and gives an unknown remote none by default', () => {
    expect(grantsOf({ routeGrants: { gifts: ['/play'] } }, 'gifts')).toEqual(['/play']);
    expect(grantsOf({}, 'gifts')).toEqual(['/game', '/gifts/:giftId']);
    expect(grantsOf({}, 'news')).toEqual([]);
  });

  it('names shapes and variables as integrators write them', () => {
    expect(pathShape('/gifts/:giftId')).toBe(pathShape('/gifts/:id'));
    expect(pathShape('/gifts/latest')).not.toBe(pathShape('/gifts/:id'));
    // The router matches letters in any case: /About is /about's shape.
    expect(pathShape('/About')).toBe(pathShape('/about'));
    expect(remoteVariable('news', 'URL')).toBe('REMOTE_NEWS_URL');
  });
});
