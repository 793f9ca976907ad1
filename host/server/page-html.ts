/**
 * The HTML page the host's server sends for a route: the built `index.html` with the runtime
 * configuration inline, `preconnect` to the remotes' and the API's origins, preloads of the
 * route's remote (manifest, remoteEntry.js, the page's own scripts), and, for a prerendered
 * page, its markup inside the host's frame with the styles it needs, so its text is on screen
 * before any script runs (docs/decisions/0015-host-server-starts-the-page.md); a page rendered
 * per request with the visitor's data the same way (0028-data-pages-rendered-by-the-host-server.md).
 */
import { serverLog } from 'server/log';
import { maskUrl } from 'server/request-log';
import {
  jsonForScriptElement,
  PRERENDER_STATE_ELEMENT_ID,
  PRERENDERED_ATTRIBUTE,
  RUNTIME_CONFIG_ELEMENT_ID,
} from 'shared/page-data';
import type { RuntimeConfig } from 'shared/runtime-config';
import { documentTitle } from 'shared/site';
import type { RouteDefinition } from '../src/route-table/route-table';
import { renderPageFrame } from './page-frame';
import type { PrerenderedMarkup, RemoteSnapshot } from './remote-snapshot';
import { NOINDEX } from './robots';

/** `#root`, the app's element, and what the build put in it (the boot indicator): up to the `</div>` before `<noscript>` or `</body>`. */
const ROOT_ELEMENT = /<div id="?root"?>([\s\S]*?)<\/div>(?=\s*(?:<noscript>|<\/body>))/;
const TITLE_ELEMENT = /<title>[\s\S]*?<\/title>/;

export interface PageHtmlOptions {
  /** The built `index.html`. */
  template: string;
  config: RuntimeConfig;
  /** The host's own stylesheet, inlined with a prerendered page. */
  hostCss: string;
}

export interface PageRequest {
  pathname: string;
  /** The route, or undefined for a page the app shows as an error. */
  route: RouteDefinition | undefined;
  /** The title of the error the app will show instead of a route's page. */
  errorTitle?: string;
  snapshot: (remote: string) => RemoteSnapshot | undefined;
  /** A private page: search engines are told not to index it. */
  noindex?: boolean;
  /**
   * The page rendered for this request with the visitor's data (data-pages.ts), sanitised, with
   * its styles: put in the page as a prerendered page is, in its place.
   */
  rendered?: PrerenderedMarkup & { css: string };
  /**
   * The configuration inline in this page, when it is not the renderer's: the one that names
   * the remotes' builds the page was given (remote-build-choice.ts).
   */
  config?: RuntimeConfig;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** CSS inside a `<style>` element: nothing in it may close the element. */
function styleElement(css: string): string {
  return `<style>${css.replace(/<\/(style)/gi, '<\\/$1')}</style>`;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Connections the page will use at once: the API's, whose requests carry the visitor's cookie
 * over the browser's credentialed connections, and the route's remote's, whose manifest and
 * scripts are fetched without credentials (its scripts with CORS, for their integrity). Another
 * remote is connected to when a link to it is pointed at (navigation/link-intent.tsx): a
 * connection opened for a page the visitor may never open costs the phone's renderer its request
 * now and is closed unused after a few seconds.
 */
function preconnects(config: RuntimeConfig, remote: string | undefined): string[] {
  const links = new Set<string>();
  const api = originOf(config.apiBaseUrl);
  if (api) links.add(`<link rel="preconnect" href="${escapeAttribute(api)}">`);
  const url = remote === undefined ? undefined : config.remotes[remote];
  const origin = url && originOf(url);
  if (origin) links.add(`<link rel="preconnect" href="${escapeAttribute(origin)}" crossorigin>`);
  return [...links];
}

/**
 * The route's remote, started from the HTML: what the federation runtime would ask for, one
 * round trip at a time. A page sent prerendered is on screen before any script runs: the
 * remote's copies of shared modules, needed only to take it over, are left to the runtime and
 * do not compete with the page's first scripts.
 */
function routePreloads(route: RouteDefinition, snapshot: RemoteSnapshot | undefined, prerendered: boolean): string[] {
  if (!snapshot) return [];
  const files = snapshot.exposes.get(route.module);
  const scripts = [
    snapshot.remoteEntry,
    ...(files?.scripts ?? []),
    ...(prerendered ? [] : (files?.sharedScripts ?? [])),
  ];
  // As the host's runtime loads them (federation/loading-plugin.ts): with CORS and the integrity
  // the manifest gives, or the browser would fetch them again. One the manifest gives none for is
  // refused by the browser, so not preloaded either.
  const preloads = [...new Set(scripts)].flatMap((script) => {
    const integrity = snapshot.integrity.get(script);
    if (!integrity) return [];
    const attributes = `href="${escapeAttribute(script)}" as="script" crossorigin integrity="${escapeAttribute(integrity)}"`;
    return [`<link rel="preload" ${attributes}>`];
  });
  return [`<link rel="preload" href="${escapeAttribute(snapshot.manifestUrl)}" as="fetch" crossorigin>`, ...preloads];
}

function configElementOf(config: RuntimeConfig): string {
  return `<script type="application/json" id="${RUNTIME_CONFIG_ELEMENT_ID}">${jsonForScriptElement(config)}</script>`;
}

export function createPageHtml({ template, config: defaultConfig, hostCss }: PageHtmlOptions) {
  const defaultConfigElement = configElementOf(defaultConfig);
  const canPrerender = ROOT_ELEMENT.test(template);

  return function pageHtml(request: PageRequest): string {
    const { pathname, route, errorTitle, snapshot, noindex = false, rendered } = request;
    const config = request.config ?? defaultConfig;
    const configElement = request.config ? configElementOf(request.config) : defaultConfigElement;
    const remote = route ? snapshot(route.remote) : undefined;
    const styles: string[] = [];
    let root: string | undefined;
    const published = route?.prerendered ? remote?.prerendered.get(route.module) : undefined;
    const prerendered = canPrerender ? (rendered ?? published) : undefined;
    const pageCss = rendered ? rendered.css : remote?.prerenderCss;
    if (route && prerendered) {
      try {
        const frame = renderPageFrame({
          pathname,
          layout: route.layout,
          remote: route.remote,
          pageHtml: prerendered.html,
          config,
        });
        const state = `<script type="application/json" id="${PRERENDER_STATE_ELEMENT_ID}" data-build="${escapeAttribute(prerendered.buildId)}">${jsonForScriptElement(prerendered.state)}</script>`;
        root = `<div id="root" ${PRERENDERED_ATTRIBUTE}="${escapeAttribute(route.module)}">${frame}</div>${state}`;
        styles.push(styleElement(hostCss), ...(pageCss ? [styleElement(pageCss)] : []));
      } catch (error) {
        // The page still works without its text in the HTML: the app renders it as usual.
        serverLog().error({ err: error }, `prerendering ${maskUrl(pathname)} failed`);
      }
    }
    // A page rendered with the visitor's data has buttons to take over soon (Redeem): its remote's
    // shared copies are preloaded as for a page its remote draws.
    const preloads = route ? routePreloads(route, remote, root !== undefined && !rendered) : [];
    const robots = noindex ? [`<meta name="robots" content="${NOINDEX}">`] : [];
    const head = [...robots, ...preconnects(config, route?.remote), ...preloads, configElement, ...styles];
    const title = `<title>${escapeText(documentTitle(errorTitle ?? route?.title))}</title>`;
    let html = TITLE_ELEMENT.test(template)
      ? template.replace(TITLE_ELEMENT, () => title)
      : template.replace('</head>', () => `${title}</head>`);
    html = html.replace('</head>', () => `${head.join('')}</head>`);
    return root === undefined ? html : html.replace(ROOT_ELEMENT, () => root as string);
  };
}
