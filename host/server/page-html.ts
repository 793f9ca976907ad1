/**
 * A route's page: the built `index.html` with its configuration, preloads of its remote and its
 * markup in the host's frame (docs/decisions/0015-host-server-starts-the-page.md).
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

/** `#root` with the build's boot indicator. */
const ROOT_ELEMENT = /<div id="?root"?>([\s\S]*?)<\/div>(?=\s*(?:<noscript>|<\/body>))/;
const TITLE_ELEMENT = /<title>[\s\S]*?<\/title>/;

export interface PageHtmlOptions {
  template: string;
  config: RuntimeConfig;
  hostCss: string;
}

export interface PageRequest {
  pathname: string;
  route: RouteDefinition | undefined;
  errorTitle?: string;
  snapshot: (remote: string) => RemoteSnapshot | undefined;
  noindex?: boolean;
  /** Sanitised (data-pages.ts). */
  rendered?: PrerenderedMarkup & { css: string };
  /** Naming the builds the page was given. */
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

/** Only the API and the route's remote: another remote is connected to when a link to it is pointed at. */
function preconnects(config: RuntimeConfig, remote: string | undefined): string[] {
  const links = new Set<string>();
  const api = originOf(config.apiBaseUrl);
  if (api) links.add(`<link rel="preconnect" href="${escapeAttribute(api)}">`);
  const url = remote === undefined ? undefined : config.remotes[remote];
  const origin = url && originOf(url);
  if (origin) links.add(`<link rel="preconnect" href="${escapeAttribute(origin)}" crossorigin>`);
  return [...links];
}

/** A prerendered page leaves the remote's shared copies to the runtime, so they do not compete with first scripts. */
function routePreloads(route: RouteDefinition, snapshot: RemoteSnapshot | undefined, prerendered: boolean): string[] {
  if (!snapshot) return [];
  const files = snapshot.exposes.get(route.module);
  const scripts = [
    snapshot.remoteEntry,
    ...(files?.scripts ?? []),
    ...(prerendered ? [] : (files?.sharedScripts ?? [])),
  ];
  // With CORS and integrity as the runtime loads them, or the browser fetches them again.
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
