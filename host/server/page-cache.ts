/**
 * Pages rendered once and reused. A page that is the same for every visitor given the same builds
 * of the remotes (a route's page for one built index.html, one combination of the remotes'
 * builds, one hostname's view, private or not) is rendered, hashed and compressed the first time
 * it is asked for, and then sent as it is until the template or the remote's build changes
 * (docs/decisions/0029-pages-rendered-once.md). A page pinned by a preview is its browser's own
 * and never goes through it.
 *
 * A page rendered with a visitor's data (a route whose page the server renders per request) must
 * never go through it: the handler renders those itself and sends them `private, no-store`.
 */
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { prepareBody, type PreparedBody } from 'server/prepared-body';
import type { HttpError } from 'shared/http-error';
import {
  notFoundError,
  validationError,
  type RouteDefinition,
  type RouteMatch,
  type RouteTable,
} from '../src/route-table/route-table';
import { canonicalMatch } from './canonical-path';
import type { RemoteSnapshot } from './remote-snapshot';

/**
 * Pages kept per view at most, the least recently used dropped first. A page is kept under its
 * route's canonical path only (canonical-path.ts: `/About` is sent to `/about`), per status and
 * per combination of the remotes' builds its visitors get (a canary's and the stable build's
 * visitors each have theirs): room for two of each of some 24 pages.
 */
export const MAX_PAGES_PER_VIEW = 48;

/** A page as the cache keeps it. */
export interface CachedPage {
  /** The body, its ETag and its compressed forms. */
  body: PreparedBody;
  /** The page carries its remote's prerendered markup. */
  prerendered: boolean;
}

interface Entry extends CachedPage {
  /** The snapshot of the route's remote it was rendered from (none: an error page, or no snapshot yet). */
  source: RemoteSnapshot | undefined;
}

/** What a page is rendered from, besides the view's template and configuration. */
export interface PageKey {
  pathname: string;
  /** The route, or undefined for a page the app shows as an error. */
  route: RouteDefinition | undefined;
  /** The HTTP status: 200, or the error's. */
  status: number;
  noindex: boolean;
  /** The builds of the remotes the page was given (remote-build-choice.ts, BuildChoice's key); none: no remote read. */
  builds?: string;
}

/**
 * The key of a page in a view's cache. Only a prerendered page reads its path (its frame marks
 * the current link), and the handler renders it at its canonical path only; any other route's
 * page is the same for all its paths (every gift's page is one page), and an error page is the
 * same for every path with that status.
 */
export function pageKey({ pathname, route, status, noindex, builds = '' }: PageKey): string {
  const path = route?.prerendered ? pathname : '';
  return JSON.stringify([route?.path ?? null, status, noindex, path, builds]);
}

/**
 * A page's Cache-Control: asked again each time (a 304 while it is the same), and kept by the
 * visitor's browser only. A page now differs by the visitor's cookies (their cohort's builds of
 * the remotes, and the first page sets that cookie): a shared cache must not give one visitor's
 * page to another. `Vary: Cookie` would let a shared cache keep a copy per Cookie header, which
 * holds every cookie of the site (a session, consent), so it would keep one per visitor and serve
 * almost none; and a cache that ignores Vary would mix cohorts. `private` says what is true:
 * the page is for this browser. The server's own cache (this module) keeps the work cheap.
 */
export const PAGE_CACHE_CONTROL = 'private, no-cache';

export interface PageCache {
  /**
   * The page under `key`, rendered by `render` when there is none yet or it was rendered from
   * another snapshot of the route's remote than `source` (the remote sources give a new one for
   * each new build).
   */
  get(
    key: string,
    source: RemoteSnapshot | undefined,
    render: () => Omit<CachedPage, 'body'> & { html: string; status: number },
  ): CachedPage;
  /** How many pages it holds. */
  readonly size: number;
}

export function createPageCache(max = MAX_PAGES_PER_VIEW): PageCache {
  const pages = new LRUCache<string, Entry>({ max });
  return {
    get(key, source, render) {
      let entry = pages.get(key);
      if (!entry || entry.source !== source) {
        const { html, status, prerendered } = render();
        const body = prepareBody({
          status,
          type: 'text/html; charset=utf-8',
          body: html,
          cacheControl: PAGE_CACHE_CONTROL,
        });
        entry = { body, prerendered, source };
        pages.set(key, entry);
      }
      return entry;
    },
    get size() {
      return pages.size;
    },
  };
}

/** What tells one version of a file from another: a new file, a write, a rename over it. */
function stampOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/**
 * The built index.html as it is now, read again only when it has changed, for the pages'
 * template; undefined while there is none (the host is not built). Requests that arrive while a
 * look at the file is under way, or in the same turn of the event loop as its answer, share it:
 * one `stat` serves a burst of requests, and a request that comes after a change sees it.
 */
export function createTemplateReader(file: string): () => Promise<string | undefined> {
  let last: { stamp: string; text: string } | undefined;
  let looking: Promise<string | undefined> | undefined;
  const lookAgain = () => {
    looking = undefined;
  };

  async function look(): Promise<string | undefined> {
    try {
      const stamp = stampOf(await stat(file));
      if (last?.stamp !== stamp) last = { stamp, text: await readFile(file, 'utf8') };
      return last.text;
    } catch {
      last = undefined;
      return undefined;
    }
  }

  return () => {
    if (!looking) {
      looking = look();
      void looking.then(() => setImmediate(lookAgain));
    }
    return looking;
  };
}

/** Paths whose route is remembered, the least recently asked dropped first (a path is the client's to choose). */
export const MAX_RESOLVED_PATHS = 512;

/** A path that names a route in another spelling than the route's own: the page is sent from its canonical path. */
export class OtherSpelling {
  constructor(
    readonly canonical: string,
    readonly route: RouteDefinition,
  ) {}
}

/** What a request's path names: a route's page, the error the page will show, or the route's canonical path. */
export type ResolvedPath = RouteMatch | HttpError | OtherSpelling;

/**
 * `table.resolvePath`, for a path in its canonical spelling (canonical-path.ts), remembered for the
 * most recent paths of pages: the route table's matching ranks every route again on each call,
 * and a page sent from the cache costs less than that. Any other spelling of a route's path
 * resolves to its canonical path, and a path that names no page to its error; neither is kept.
 */
export function createPathResolver(table: RouteTable, max = MAX_RESOLVED_PATHS): (pathname: string) => ResolvedPath {
  const pages = new LRUCache<string, RouteMatch>({ max });
  return (pathname) => {
    const known = pages.get(pathname);
    if (known) return known;
    const found = canonicalMatch(table, pathname);
    if (!found) return notFoundError(pathname);
    if (found.canonical !== pathname) return new OtherSpelling(found.canonical, found.match.route);
    const { match } = found;
    const invalid = validationError(match.route, match.params, pathname);
    if (invalid) return invalid;
    pages.set(pathname, match);
    return match;
  };
}
