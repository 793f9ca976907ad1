/** The host's server's own series (part="host"); labels from the route table and the configured remotes, never a path or an id. */
import { Counter, type Registry } from 'prom-client';
import type { BuildChannel } from './remote-build-choice';

export const PAGES_RENDERED_METRIC = 'giftbox_pages_rendered_total';
export const PRERENDER_HITS_METRIC = 'giftbox_prerender_hits_total';
export const PAGE_CACHE_MISSES_METRIC = 'giftbox_page_cache_misses_total';
export const REMOTE_REFRESH_FAILURES_METRIC = 'giftbox_remote_refresh_failures_total';
export const DATA_PAGES_METRIC = 'giftbox_data_pages_total';
export const REMOTE_BUILD_PAGES_METRIC = 'giftbox_remote_build_pages_total';

/** miss: the server had no prerendered markup for it yet. */
export type PrerenderOutcome = 'hit' | 'miss';

/** Every outcome but `rendered` and `not-found` leaves the page to the browser (docs/operations.md). */
export type DataPageOutcomeLabel = 'rendered' | 'not-found' | 'api-unavailable' | 'render-failed' | 'no-renderer';

export interface HostMetrics {
  /** `route`: the pattern matched, `*` for none. */
  pageRendered(route: string, status: number): void;
  pageCacheMissed(route: string): void;
  prerendered(route: string, outcome: PrerenderOutcome): void;
  remoteRefreshFailed(remote: string): void;
  remoteBuildSent(remote: string, channel: BuildChannel): void;
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
