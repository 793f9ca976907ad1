/**
 * Pages the same for every visitor given the same builds, rendered, hashed and compressed once,
 * until the template or the remote's build changes (docs/decisions/0029-pages-rendered-once.md).
 * A preview's page or one rendered with a visitor's data never goes through it.
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

/** Two build combinations (canary, stable) of some 24 pages. */
export const MAX_PAGES_PER_VIEW = 48;

export interface CachedPage {
  body: PreparedBody;
  prerendered: boolean;
}

interface Entry extends CachedPage {
  source: RemoteSnapshot | undefined;
}

export interface PageKey {
  pathname: string;
  route: RouteDefinition | undefined;
  status: number;
  noindex: boolean;
  builds?: string;
}

/** Only a prerendered page reads its path (its frame marks the current link): every gift's page is one page. */
export function pageKey({ pathname, route, status, noindex, builds = '' }: PageKey): string {
  const path = route?.prerendered ? pathname : '';
  return JSON.stringify([route?.path ?? null, status, noindex, path, builds]);
}

/** `private`: a page differs by the cohort cookie; `Vary: Cookie` would key shared caches per visitor (decision 0030). */
export const PAGE_CACHE_CONTROL = 'private, no-cache';

export interface PageCache {
  /** Rendered again for another snapshot (a new build). */
  get(
    key: string,
    source: RemoteSnapshot | undefined,
    render: () => Omit<CachedPage, 'body'> & { html: string; status: number },
  ): CachedPage;
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

function stampOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** The built index.html, read again only when changed: a burst of requests shares one `stat`. */
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

/** A path is the client's to choose: this many are remembered. */
export const MAX_RESOLVED_PATHS = 512;

export class OtherSpelling {
  constructor(
    readonly canonical: string,
    readonly route: RouteDefinition,
  ) {}
}

export type ResolvedPath = RouteMatch | HttpError | OtherSpelling;

/**
 * `table.resolvePath` remembered for canonical paths (canonical-path.ts): matching ranks every
 * route again on each call, which costs more than a cached page. Other spellings are not kept.
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
