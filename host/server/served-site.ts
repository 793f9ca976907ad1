/**
 * What the host's handler serves of one composition of the site (site-composition.ts): the
 * configuration with its routes, its table's resolver and robots, and its view with its page
 * renderer and pages, all made again when the composition changes.
 */
import type { RuntimeConfig } from 'shared/runtime-config';
import { createPathResolver, type PageCache, type ResolvedPath } from './page-cache';
import type { createPageHtml } from './page-html';
import type { RemoteSnapshot } from './remote-snapshot';
import { Robots } from './robots';
import { securityHeaders } from './security-headers';
import type { ComposedSite } from './site-composition';

/** What a page opened at one hostname is sent: the configuration and the remotes' files as it reaches them. */
export interface HostnameView {
  config: RuntimeConfig;
  configBody: string;
  /** A snapshot with its URLs as this view's pages reach them. */
  at: (snapshot: RemoteSnapshot) => RemoteSnapshot;
  /** A page's security headers, over HTTP and over HTTPS: its policy allows the origins this view names. */
  pageHeaders: (https: boolean) => Record<string, string>;
  /** The page renderer of the built index.html last read for this view and its pages: dropped with the view. */
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

/** What the handler serves of one composition of the site: its routes, its views and their pages. */
export interface ServedSite {
  site: ComposedSite;
  /** The configuration with the composed routes: the page routes exactly what the server does. */
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
