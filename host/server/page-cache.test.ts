/**
 * @jest-environment node
 *
 * The pieces of the page cache: what a page is keyed by, how many are kept, when one is
 * rendered again, and the template read again only when the built index.html has changed.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpError } from 'shared/http-error';
import { RouteTable, type RouteDefinition } from '../src/route-table/route-table';
import {
  createPageCache,
  createPathResolver,
  createTemplateReader,
  MAX_PAGES_PER_VIEW,
  OtherSpelling,
  pageKey,
  type PageKey,
} from './page-cache';
import type { RemoteSnapshot } from './remote-snapshot';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const TABLE = RouteTable.registry();

function route(path: string): RouteDefinition {
  const found = TABLE.routes.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
}

function snapshot(buildId: string): RemoteSnapshot {
  return {
    buildId,
    manifestUrl: 'https://content.example.com/mf-manifest.json',
    remoteEntry: 'https://content.example.com/remoteEntry.js',
    exposes: new Map(),
    integrity: new Map(),
    prerendered: new Map(),
  };
}

describe('pageKey', () => {
  const key = (page: Partial<PageKey> & { pathname: string }) =>
    pageKey({ route: undefined, status: 200, noindex: false, ...page });

  it("keys a prerendered route's page by its path: its frame marks the current link", () => {
    const about = route('/about');
    expect(key({ pathname: '/about', route: about })).not.toBe(key({ pathname: '/About', route: about }));
  });

  it("keys every other route's page by its route alone: every gift's page is one page", () => {
    const gift = route('/gifts/:giftId');
    const first = key({ pathname: `/gifts/${ID}`, route: gift, noindex: true });
    expect(key({ pathname: '/gifts/BBBBBBBBBBBBBBBBBBBBBBBB', route: gift, noindex: true })).toBe(first);
    expect(key({ pathname: `/gifts/${ID}`, route: route('/redeem/:redeemId'), noindex: true })).not.toBe(first);
  });

  it('keys an error page by its status and whether it is private, never by its path', () => {
    const missing = key({ pathname: '/nope', status: 404 });
    expect(key({ pathname: '/other/nope', status: 404 })).toBe(missing);
    expect(key({ pathname: '/gifts/short', status: 404, noindex: true })).not.toBe(missing);
    expect(key({ pathname: '/nope', status: 400 })).not.toBe(missing);
  });
});

describe('createPageCache', () => {
  const rendered = (html: string) => () => ({ html, status: 200, prerendered: false });

  it('renders a page once and sends the same body from then on', () => {
    const pages = createPageCache();
    const render = jest.fn(rendered('<p>page</p>'));
    const source = snapshot('c1');
    const first = pages.get('about', source, render);
    expect(pages.get('about', source, render)).toBe(first);
    expect(render).toHaveBeenCalledTimes(1);
    expect(first.body.bytes.toString()).toBe('<p>page</p>');
  });

  it("renders it again for a new build of the route's remote, with a new ETag", () => {
    const pages = createPageCache();
    const old = pages.get('about', snapshot('c1'), rendered('<p>old</p>'));
    const fresh = pages.get('about', snapshot('c2'), rendered('<p>new</p>'));
    expect(fresh.body.bytes.toString()).toBe('<p>new</p>');
    expect(fresh.body.etag).not.toBe(old.body.etag);
    expect(pages.size).toBe(1);
  });

  it(`keeps ${MAX_PAGES_PER_VIEW} pages at most, the least recently used dropped first`, () => {
    const pages = createPageCache();
    const render = jest.fn(rendered('<p>page</p>'));
    pages.get('busy', undefined, render);
    for (let n = 0; n < MAX_PAGES_PER_VIEW * 10; n += 1) {
      pages.get(`path ${n}`, undefined, render);
      // Asked again and again: kept over those asked once.
      pages.get('busy', undefined, render);
    }
    expect(pages.size).toBe(MAX_PAGES_PER_VIEW);
    expect(render).toHaveBeenCalledTimes(1 + MAX_PAGES_PER_VIEW * 10);
    pages.get(`path ${MAX_PAGES_PER_VIEW * 10 - 1}`, undefined, render);
    expect(render).toHaveBeenCalledTimes(1 + MAX_PAGES_PER_VIEW * 10);
  });
});

describe('createPathResolver', () => {
  it.each(['/', '/about', `/gifts/${ID}`, '/gifts/short', '/nope', '/%E0%A4%A'])(
    'resolves %s as the route table does, the first time and again',
    (path) => {
      const resolve = createPathResolver(TABLE);
      const expected = TABLE.resolvePath(path);
      for (const resolved of [resolve(path), resolve(path)]) {
        if (expected instanceof HttpError) expect(resolved).toEqual(expected);
        else expect(resolved).toStrictEqual(expected);
      }
    },
  );

  it.each([
    ['/ABOUT', '/about', '/about'],
    ['/about/', '/about', '/about'],
    [`/GIFTS/${ID}`, `/gifts/${ID}`, '/gifts/:giftId'],
    ['/Gifts/short', '/gifts/short', '/gifts/:giftId'],
  ])('resolves %s, a spelling of its route of its own, to its canonical path %s', (path, canonical, pattern) => {
    const resolve = createPathResolver(TABLE);
    for (const resolved of [resolve(path), resolve(path)]) {
      expect(resolved).toEqual(new OtherSpelling(canonical, route(pattern)));
    }
  });
});

describe('createTemplateReader', () => {
  /** A request that comes later than the last: the event loop has turned since its answer. */
  const later = () => new Promise((resolve) => setImmediate(resolve));
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'page-cache-test-'));
    file = join(dir, 'index.html');
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives nothing while there is no file, and the file once it is built', async () => {
    const read = createTemplateReader(file);
    expect(await read()).toBeUndefined();
    writeFileSync(file, '<p>built</p>');
    await later();
    expect(await read()).toBe('<p>built</p>');
  });

  it('gives the new text once the file is written again, at the same length too', async () => {
    writeFileSync(file, '<p>build 1</p>');
    const read = createTemplateReader(file);
    expect(await read()).toBe('<p>build 1</p>');
    expect(await read()).toBe('<p>build 1</p>');
    writeFileSync(file, '<p>build 2</p>');
    await later();
    expect(await read()).toBe('<p>build 2</p>');
  });

  it('gives the new text once another file is renamed over it, and nothing once it is removed', async () => {
    writeFileSync(file, '<p>build 1</p>');
    const read = createTemplateReader(file);
    expect(await read()).toBe('<p>build 1</p>');
    writeFileSync(join(dir, 'index.html.tmp'), '<p>build 2</p>');
    renameSync(join(dir, 'index.html.tmp'), file);
    await later();
    expect(await read()).toBe('<p>build 2</p>');
    rmSync(file);
    await later();
    expect(await read()).toBeUndefined();
  });

  it('shares one look at the file among the requests that ask together', async () => {
    writeFileSync(file, '<p>build 1</p>');
    const read = createTemplateReader(file);
    const together = [read(), read(), read()];
    expect(together[1]).toBe(together[0]);
    expect(await Promise.all(together)).toEqual(['<p>build 1</p>', '<p>build 1</p>', '<p>build 1</p>']);
  });
});
