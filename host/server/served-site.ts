/** What the host's handler serves of one composition of the site, made again when the composition changes. */
import type { RuntimeConfig } from 'shared/runtime-config';
import { createPathResolver, type PageCache, type ResolvedPath } from './page-cache';
import type { createPageHtml } from './page-html';
import type { RemoteSnapshot } from './remote-snapshot';
import { Robots } from './robots';
import { securityHeaders } from './security-headers';
import type { ComposedSite } from './site-composition';

export interface HostnameView {
  config: RuntimeConfig;
  configBody: string;
  at: (snapshot: RemoteSnapshot) => RemoteSnapshot;
  pageHeaders: (https: boolean) => Record<string, string>;
  /** Dropped with the view. */
  page?: { template: string; render: ReturnType<typeof createPageHtml>; pages: PageCache };
}

export function pageHeadersFor(config: RuntimeConfig): HostnameView['pageHeaders'] {
  const made = new Map<boolean, Record<string, string>>();
  return (https) => {
    let headers = made.get(https);
    if (!headers) {
      headers = securityHeaders(config, { page: true, https });
      made.set(https, headers);
    }
    return headers;
  };
}

export interface ServedSite {
  site: ComposedSite;
  /** With the composed routes: the page routes exactly as the server does. */
  config: RuntimeConfig;
  resolvePath: (pathname: string) => ResolvedPath;
  robots: Robots;
  defaultView: HostnameView;
}

export function servedOf(site: ComposedSite, config: RuntimeConfig): ServedSite {
  const withRoutes: RuntimeConfig = { ...config, routes: [...site.routes] };
  return {
    site,
    config: withRoutes,
    resolvePath: createPathResolver(site.table),
    robots: new Robots(site.table.routes),
    defaultView: {
      config: withRoutes,
      configBody: `${JSON.stringify(withRoutes)}\n`,
      at: (snapshot) => snapshot,
      pageHeaders: pageHeadersFor(withRoutes),
    },
  };
}
