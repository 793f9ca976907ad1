/**
 * The host's server's own series (part="host"): the pages it answered by route pattern, those it
 * had to render (the rest came from its page cache), whether a prerendered route's page carried
 * its remote's markup, how the pages it renders with their data were answered, its failed
 * reads of a remote's build, and which channel each remote's build in its pages came by (the
 * canary's share of pages). Labels come from the composed route table and the configured remotes
 * (at most MAX_REMOTES, each at most 32 routes): never a path or an id.
 */
import { Counter, type Registry } from 'prom-client';
import type { BuildChannel } from './remote-build-choice';

export const PAGES_RENDERED_METRIC = 'giftbox_pages_rendered_total';
export const PRERENDER_HITS_METRIC = 'giftbox_prerender_hits_total';
export const PAGE_CACHE_MISSES_METRIC = 'giftbox_page_cache_misses_total';
export const REMOTE_REFRESH_FAILURES_METRIC = 'giftbox_remote_refresh_failures_total';
export const DATA_PAGES_METRIC = 'giftbox_data_pages_total';
export const REMOTE_BUILD_PAGES_METRIC = 'giftbox_remote_build_pages_total';

/** hit: the page carried its remote's prerendered markup; miss: the server had none for it yet. */
export type PrerenderOutcome = 'hit' | 'miss';

/**
 * How a page the host's server renders with its data (a gift, a redeem session) was answered:
 * - rendered: with the visitor's data; not-found: a 404, the API knowing no such id;
 * - api-unavailable: the API did not answer in time or as it should, so the browser rendered it;
 * - render-failed: the remote's render bundle threw, answered late or lost its worker, so the browser rendered it;
 * - no-renderer: the remote's build has no usable render bundle (yet), so the browser rendered it.
 */
export type DataPageOutcomeLabel = 'rendered' | 'not-found' | 'api-unavailable' | 'render-failed' | 'no-renderer';

export interface HostMetrics {
  /** A page (HTML) answered: `route` is the route pattern it matched, `*` for none. */
  pageRendered(route: string, status: number): void;
  /** A page was rendered, its page cache having none for it (page-cache.ts): `route` as for `pageRendered`. */
  pageCacheMissed(route: string): void;
  /** A prerendered route's page was sent with or without its markup. */
  prerendered(route: string, outcome: PrerenderOutcome): void;
  /** Reading a remote's latest build, manifest or prerendered pages failed. */
  remoteRefreshFailed(remote: string): void;
  /** A page was sent naming a build of `remote` that came by `channel`: stable, canary, or a preview's pin. */
  remoteBuildSent(remote: string, channel: BuildChannel): void;
  /** A page of a route the host's server renders with its data was answered so. */
  dataPage(route: string, outcome: DataPageOutcomeLabel): void;
}

export function createHostMetrics(registry: Registry): HostMetrics {
  const pages = new Counter({
    name: PAGES_RENDERED_METRIC,
    help: "Pages the host's server answered, by the route pattern they matched (* for none) and HTTP status.",
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const prerender = new Counter({
    name: PRERENDER_HITS_METRIC,
    help: "Pages of prerendered routes, by whether they carried their remote's markup (hit) or not yet (miss).",
    labelNames: ['route', 'outcome'] as const,
    registers: [registry],
  });
  const cacheMisses = new Counter({
    name: PAGE_CACHE_MISSES_METRIC,
    help: "Pages the host's server rendered, having none kept for them (first asked, a new index.html or remote build, or dropped for room), by route pattern.",
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const refreshFailures = new Counter({
    name: REMOTE_REFRESH_FAILURES_METRIC,
    help: "Failed reads of a remote's latest build, manifest or prerendered pages by the host's server.",
    labelNames: ['remote'] as const,
    registers: [registry],
  });
  const dataPages = new Counter({
    name: DATA_PAGES_METRIC,
    help: "Pages of routes the host's server renders with the visitor's data, by route pattern and outcome: rendered, not-found, or rendered in the browser instead (api-unavailable, render-failed, no-renderer).",
    labelNames: ['route', 'outcome'] as const,
    registers: [registry],
  });
  const remoteBuildPages = new Counter({
    name: REMOTE_BUILD_PAGES_METRIC,
    help: "Pages the host's server sent, once per remote whose build they name, by remote and by the channel that build came by: stable, canary (the visitor's cohort is in the canary's share) or preview (a signed pin).",
    labelNames: ['remote', 'channel'] as const,
    registers: [registry],
  });
  return {
    remoteBuildSent: (remote, channel) => remoteBuildPages.inc({ remote, channel }),
    pageRendered: (route, status) => pages.inc({ route, status: String(status) }),
    pageCacheMissed: (route) => cacheMisses.inc({ route }),
    prerendered: (route, outcome) => prerender.inc({ route, outcome }),
    remoteRefreshFailed: (remote) => refreshFailures.inc({ remote }),
    dataPage: (route, outcome) => dataPages.inc({ route, outcome }),
  };
}
