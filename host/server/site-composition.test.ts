/** @jest-environment node */
import { everyRemote } from 'shared/testing/runtime-config';
import type { PublishedRoutes, RemoteSnapshot } from './remote-snapshot';
import { compositionOrder } from 'shared/composition';
import { SiteComposition } from './site-composition';

const remotes = { news: 'https://news.example.com/mf-manifest.json', ...everyRemote() };
const config = { remotes, routeGrants: { news: ['/news'] } };

/** A stable build of a remote publishing `published`, as the sources keep it. */
const snapshotOf = (published: PublishedRoutes) => ({ published }) as RemoteSnapshot;

describe('SiteComposition', () => {
  it("composes the registry's remotes first, then the others in the order configured", () => {
    expect(compositionOrder(Object.keys({ ...remotes, blog: 'https://blog.example.com/mf-manifest.json' }))).toEqual([
      'gifts',
      'redeem',
      'content',
      'news',
      'blog',
    ]);
  });

  it('composes again when a remote publishes other routes, logging the refusals once per change', () => {
    const log: string[] = [];
    let news = snapshotOf({
      routes: [{ module: 'NewsPage', path: '/', layout: 'default', title: 'News' }],
      refusals: [],
    });
    const site = new SiteComposition({
      config,
      snapshot: (remote) => (remote === 'news' ? news : undefined),
      log: (m) => log.push(m),
    });
    const first = site.current();
    expect(first.routes.find((route) => route.path === '/')?.remote).toBe('content');
    expect(site.current()).toBe(first);
    // The same routes read again from a new build: the same composition, nothing said again.
    news = snapshotOf({ ...news.published! });
    expect(site.current()).toBe(first);
    expect(log).toHaveLength(1);
    news = snapshotOf({
      routes: [{ module: 'NewsPage', path: '/news', layout: 'default', title: 'News' }],
      refusals: [],
    });
    const second = site.current();
    expect(second).not.toBe(first);
    expect(second.table.matchRoute('/news')?.route.remote).toBe('news');
    expect(log).toHaveLength(1);
  });
});
