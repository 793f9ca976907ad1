/**
 * The host's production request handler: the runtime configuration, the built files, and for
 * any other page the app's HTML (page-html.ts) with the status the route table gives it (200,
 * or 404 for an unknown path or a malformed id). A request whose Host header names no valid host
 * is refused (400) before anything is read, rendered or kept. Each page carries the remotes'
 * builds its visitor gets (their cohort's, or a verified preview's: remote-build-choice.ts), gives a
 * new visitor their cohort, and `GET /remote-builds.json` tells a page which builds it should
 * run now.
 */
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { HttpError } from 'shared/http-error';
import fastifyCookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isHiddenPath, safeRelativePath, sendFile } from 'server/file-reply';
import type { PartRoutes } from 'server/part-server';
import { BROTLI_QUALITY_ON_THE_FLY, prepareBody, sendBody, sendPreparedBody } from 'server/prepared-body';
import { sendText } from 'server/text-reply';
import { isValidHost } from 'server/host-header';
import { REMOTE_BUILDS_PATH } from 'shared/deployment';
import { PRERENDER_STATE_ELEMENT_ID } from 'shared/page-data';
import type { RuntimeConfig } from 'shared/runtime-config';
import { telemetryEnabled } from 'shared/runtime-config-checks';
import { NOT_FOUND_ROUTE } from 'shared/telemetry';
import { errorTitleFor } from '../src/route-table/error-titles';
import type { RouteMatch, RouteTable } from '../src/route-table/route-table';
import { queryOf } from './canonical-path';
import type { DataPageOutcome, DataPages } from './data-pages';
import type { HostMetrics } from './host-metrics';
import { createPageCache, createTemplateReader, OtherSpelling, pageKey, type CachedPage } from './page-cache';
import { createPageHtml } from './page-html';
import type { FollowedOrigins } from './page-hostname';
import {
  buildsAnswer,
  cohortCookie,
  configWithBuilds,
  createBuildChooser,
  newCohort,
  requestCohort,
  type RequestCookies,
  type BuildChoice,
  type BuildSources,
  type PageOrigin,
} from './remote-build-choice';
import type { RemoteSnapshot } from './remote-snapshot';
import { NOINDEX } from './robots';
import { hostnameViewsPlugin, MAX_VIEWS, type HostnameViews } from './hostname-views';
import { servedOf, type HostnameView, type ServedSite } from './served-site';
import { SiteComposition } from './site-composition';
import { type PageTickets } from './page-tickets';
import { securityHeaders } from './security-headers';

export { HOST_BUILD_FILE } from './host-build-choice';
export { MAX_VIEWS };

export interface HostHandlerOptions {
  /**
   * The host's built folder, or where the build it serves is now (host-build-follower.ts): its
   * template and files are read from there.
   */
  root: string | (() => string);
  /**
   * Where files missing from `root` are looked for: the folder the host is published into, which
   * keeps earlier builds' files for the pages still running them.
   */
  otherFiles?: string;
  config: RuntimeConfig;
  /**
   * What the remotes' deployments and builds hold, for the pages' builds, preloads and prerendered
   * markup; none: plain pages. Sources that only give snapshots serve each remote's one build.
   */
  sources?: BuildSources;
  /** Each remote's preview keys (REMOTE_<NAME>_PREVIEW_KEY): a preview cookie signed with one pins its remote. */
  previewKeys?: Readonly<Partial<Record<string, readonly string[]>>>;
  /** Where the server says why a preview pins nothing (once per reason); by default, the console. */
  log?: (message: string) => void;
  /** The host's stylesheet, inlined with a prerendered page. */
  hostCss?: string;
  /** Origins of `config` sent at the page's own hostname (the defaults: `defaultOrigins`). */
  followed?: FollowedOrigins;
  /** Whether a request reached the site over HTTPS (https-check.ts); by default, its own connection's TLS. */
  isHttps?: (req: IncomingMessage) => boolean;
  /** Where the pages it answers are counted (host-metrics.ts); none: not counted. */
  metrics?: HostMetrics;
  /** Renders the pages of `serverData` routes with the visitor's data (data-pages.ts); none: in the browser. */
  dataPages?: DataPages;
  /** Signs each page's telemetry ticket (page-tickets.ts); none: pages carry no ticket. */
  tickets?: PageTickets;
  /**
   * The site composed from the remotes' published routes (site-composition.ts); none: composed
   * here from `config` and what `sources` read.
   */
  site?: Pick<SiteComposition, 'current'>;
  /**
   * Why the host's build cannot be served now (host-build-follower.ts `unservable`): pages answer
   * 503 meanwhile, never a page of one build's template with another code's configuration.
   */
  unservable?: () => string | undefined;
}

/** What the handler keeps, for tests: its views and their page renderers, the default view's included. */
export interface HostHandlerKept {
  views: number;
  renders: number;
  /** The pages kept, rendered once each (page-cache.ts), in every view. */
  pages: number;
  /** The hostnames with a view, the least recently used first. */
  hostnames: string[];
}

/** The host's routes, to register on its part server, and what they keep. */
export type HostHandler = PartRoutes & { kept: () => HostHandlerKept };

function setHeaders(reply: FastifyReply, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
}

const socketIsTls = (req: IncomingMessage) => 'encrypted' in req.socket && req.socket.encrypted === true;

/** The origin a page is served from, as its browser sees it: the scheme and the Host header. */
function pageOrigin(req: IncomingMessage, https: boolean): PageOrigin {
  const scheme = https ? 'https' : 'http';
  try {
    return { https, origin: new URL(`${scheme}://${req.headers.host ?? ''}`).origin };
  } catch {
    return { https, origin: `${scheme}://` };
  }
}

/** The 400 of a Host header that names no valid host: no page, nothing kept. */
const BAD_HOST = 'Bad request: the Host header does not name a valid host';

function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/.test(String(request.headers.accept ?? ''));
}

/** A JSON answer of the host's own (GET and HEAD alike: HEAD gets its length, no body). */
function sendJson(request: FastifyRequest, reply: FastifyReply, body: string, cacheControl: string): FastifyReply {
  return reply
    .code(200)
    .header('Content-Type', 'application/json; charset=utf-8')
    .header('Cache-Control', cacheControl)
    .header('Content-Length', Buffer.byteLength(body))
    .send(request.method === 'HEAD' ? undefined : body);
}

function pathnameOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0]?.split('#')[0] || '/';
}

/** A metric's `route`: the pattern the path matched (a malformed id still names its route), never the path. */
function routeLabel(table: RouteTable, pathname: string, resolved: RouteMatch | HttpError): string {
  const match = resolved instanceof HttpError ? table.matchRoute(pathname) : resolved;
  return match?.route.path ?? NOT_FOUND_ROUTE;
}

/**
 * A route's path in another spelling is sent to the route's canonical path, its query kept:
 * one page per route is rendered and kept, whatever spellings clients send. A 308 keeps the
 * method; the Location is a path of this site only.
 */
function sendCanonical(request: FastifyRequest, reply: FastifyReply, canonical: string): void {
  reply.header('Location', `${canonical}${queryOf(request.url)}`);
  sendText(reply, 308, `Permanent redirect to ${canonical}`);
}

/** A page's answer while the host's build was replaced under its server; the server's log says which. */
const REPLACED = "The host's build was replaced by a build of other code: its server must be restarted to serve it";

/** A page of a `serverData` route: the visitor's own, kept by no cache. */
const DATA_PAGE_CACHE = 'private, no-store';
/** A page with a remote pinned by a preview: that browser's own, kept by no cache, never shared. */
const PINNED_PAGE_CACHE = 'private, no-store';

function sendBuilds(request: FastifyRequest, reply: FastifyReply, choice: BuildChoice, ticket?: string): void {
  const body = `${JSON.stringify({ ...buildsAnswer(choice), ...(ticket ? { ticket } : {}) })}\n`;
  // The visitor's own builds, which change with their cookies and any deploy: never stored.
  sendJson(request, reply, body, 'private, no-store');
}

/** The page carries its remote's prerendered markup: only such a page has the prerendered state in it. */
const PRERENDER_STATE_MARK = `id="${PRERENDER_STATE_ELEMENT_ID}"`;

/** The builds of `choice` as the view's page reaches them, for its preloads and markup. */
function snapshotsOf(view: HostnameView, choice: BuildChoice): (remote: string) => RemoteSnapshot | undefined {
  return (remote) => {
    const snapshot = choice.builds[remote]?.snapshot;
    return snapshot && view.at(snapshot);
  };
}

/**
 * What the host's routes keep and answer from: the site as composed now and its views (one per
 * hostname the defaults follow), the template of the build served now, the build chooser.
 */
class HostSite {
  private readonly tickets: PageTickets | undefined;
  private readonly chooseBuilds: ReturnType<typeof createBuildChooser>;
  private readonly composition: Pick<SiteComposition, 'current'>;
  private served: ServedSite;
  private readonly rootNow: () => string;
  /** The template of the build served now: a reader per folder, made again when the build's folder changes. */
  private reader: { root: string; read: () => Promise<string | undefined> };
  private readonly followed: FollowedOrigins;
  /** Development only (hostname-views.ts): none, every page gets the site's one view. */
  private hostnameViews: HostnameViews | undefined;
  private readonly isHttps: (req: IncomingMessage) => boolean;
  private readonly metrics: HostMetrics | undefined;
  private readonly hostCss: string;

  constructor(private readonly options: HostHandlerOptions) {
    const { config, sources, previewKeys, log, root } = options;
    this.tickets = telemetryEnabled(config) ? options.tickets : undefined;
    this.chooseBuilds = createBuildChooser({ sources, previewKeys, log, remotes: Object.keys(config.remotes) });
    this.composition = options.site ?? new SiteComposition({ config, snapshot: (remote) => sources?.snapshot(remote) });
    this.served = servedOf(this.composition.current(), config);
    this.rootNow = typeof root === 'string' ? () => root : root;
    this.reader = { root: this.rootNow(), read: createTemplateReader(join(this.rootNow(), 'index.html')) };
    this.followed = options.followed ?? new Set();
    this.isHttps = options.isHttps ?? socketIsTls;
    this.metrics = options.metrics;
    this.hostCss = options.hostCss ?? '';
  }

  /** What is served of the site as composed now: made again, its views and pages with it, when the composition changes. */
  private servedNow(): ServedSite {
    const site = this.composition.current();
    if (this.served.site !== site) this.served = servedOf(site, this.options.config);
    return this.served;
  }

  private readTemplate(): Promise<string | undefined> {
    const root = this.rootNow();
    if (this.reader.root !== root) this.reader = { root, read: createTemplateReader(join(root, 'index.html')) };
    return this.reader.read();
  }

  /** A file of the build served now, else of the folder keeping earlier builds' files; never a dot path (a deploy's lock or temporary file). */
  private async sendBuiltFile(request: FastifyRequest, reply: FastifyReply, path: string): Promise<boolean> {
    const { otherFiles } = this.options;
    if (isHiddenPath(path)) return false;
    if (await sendFile(request, reply, this.rootNow(), path)) return true;
    return otherFiles !== undefined && otherFiles !== this.rootNow() && sendFile(request, reply, otherFiles, path);
  }

  /**
   * The page for a path, the same for every visitor given the same builds: rendered the first
   * time, then reused until the built index.html or the route's remote's build changes
   * (page-cache.ts). A page pinned by a preview is rendered for its request and kept by nobody.
   */
  private async pageFor(
    table: RouteTable,
    view: HostnameView,
    pathname: string,
    resolved: RouteMatch | HttpError,
    noindex: boolean,
    choice: BuildChoice,
  ): Promise<CachedPage | undefined> {
    const template = await this.readTemplate();
    if (template === undefined) return undefined;
    // A new build of the host replaces the renderer and its pages.
    if (view.page?.template !== template) {
      const render = createPageHtml({ template, config: view.config, hostCss: this.hostCss });
      view.page = { template, render, pages: createPageCache() };
    }
    const { render, pages } = view.page;
    // An unknown path or an invalid id gets no preloads: the app shows an error, not the page.
    const failed = resolved instanceof HttpError;
    const route = failed ? undefined : resolved.route;
    const status = failed ? resolved.statusCode : 200;
    const renderPage = () => {
      const html = render({
        pathname,
        route,
        errorTitle: failed ? errorTitleFor(resolved.statusCode, false) : undefined,
        snapshot: snapshotsOf(view, choice),
        noindex,
        config: configWithBuilds(view.config, choice),
      });
      return { html, status, prerendered: html.includes(PRERENDER_STATE_MARK) };
    };
    if (choice.pinned) {
      const { html, prerendered } = renderPage();
      const type = 'text/html; charset=utf-8';
      const body = prepareBody(
        { status, type, body: html, cacheControl: PINNED_PAGE_CACHE },
        BROTLI_QUALITY_ON_THE_FLY,
      );
      return { body, prerendered };
    }
    // The route's remote's build as the sources hold it: a new build of it is a new snapshot.
    const source = route && choice.builds[route.remote]?.snapshot;
    return pages.get(pageKey({ pathname, route, status, noindex, builds: choice.key }), source, () => {
      this.metrics?.pageCacheMissed(routeLabel(table, pathname, resolved));
      return renderPage();
    });
  }

  /**
   * A page rendered for this visitor with their data, or its 404 (data-pages.ts): per request,
   * never kept, `private, no-store`. The page renderer is the view's, which `pageFor` has made.
   */
  private async sendDataPage(
    request: FastifyRequest,
    reply: FastifyReply,
    view: HostnameView,
    match: RouteMatch,
    outcome: DataPageOutcome,
    noindex: boolean,
    choice: BuildChoice,
  ): Promise<void> {
    const pathname = pathnameOf(request.url);
    for (const cookie of outcome.setCookies) reply.header('Set-Cookie', cookie);
    const found = outcome.kind === 'rendered';
    const html = (view.page as NonNullable<HostnameView['page']>).render({
      pathname,
      route: found ? match.route : undefined,
      errorTitle: found ? undefined : errorTitleFor(404, false),
      snapshot: snapshotsOf(view, choice),
      noindex,
      rendered: found ? outcome.rendered : undefined,
      config: configWithBuilds(view.config, choice),
    });
    const status = found ? 200 : 404;
    await sendBody(request, reply, {
      status,
      type: 'text/html; charset=utf-8',
      body: html,
      cacheControl: DATA_PAGE_CACHE,
    });
  }

  /** Each remote's build a page was sent, by channel (host-metrics.ts): the canary's share of pages. */
  private countBuilds(choice: BuildChoice): void {
    if (!this.metrics) return;
    for (const [remote, build] of Object.entries(choice.builds))
      if (build) this.metrics.remoteBuildSent(remote, build.channel);
  }

  /** What the visitor's cookies and connection say: their cohort, and the site's view at their hostname. */
  private visitorOf(request: FastifyRequest) {
    const https = this.isHttps(request.raw);
    // A path the router could not decode is answered outside the cookie plugin's hook: parsed here.
    const cookies =
      (request.cookies as RequestCookies | undefined) ?? fastifyCookie.parse(request.headers.cookie ?? '');
    const site = this.servedNow();
    const view = this.hostnameViews?.viewAt(site, request.headers.host) ?? site.defaultView;
    return { https, cookies, cohort: requestCohort(cookies), site, view };
  }

  /** Any path that names no route of its own: a route's page, a built file, or a 404. */
  private async answerPage(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { metrics, tickets } = this;
    const { https, cookies, cohort, site, view } = this.visitorOf(request);
    const pathname = pathnameOf(request.url);
    const resolved = site.resolvePath(pathname);
    if (resolved instanceof OtherSpelling) {
      sendCanonical(request, reply, resolved.canonical);
      metrics?.pageRendered(resolved.route.path, 308);
      return;
    }
    const noindex = site.robots.isPrivatePath(pathname, resolved instanceof HttpError ? undefined : resolved.route);
    if (noindex) reply.header('X-Robots-Tag', NOINDEX);
    // A route's page is never a built file: only a path that names no page is looked for in the build.
    const relativePath = resolved instanceof HttpError ? safeRelativePath(request.url) : undefined;
    if (relativePath && relativePath !== 'index.html' && (await this.sendBuiltFile(request, reply, relativePath)))
      return;
    // A missing script or stylesheet must fail as such, never as a page.
    if (resolved instanceof HttpError && !wantsHtml(request)) {
      sendText(reply, 404, 'Not found');
      return;
    }
    const route = routeLabel(site.site.table, pathname, resolved);
    // Every page, a 404 page and the page that says the host is not built alike.
    setHeaders(reply, view.pageHeaders(https));
    // A new visitor's first page already has the builds of the cohort it is given.
    const visitorCohort = cohort ?? newCohort();
    if (this.options.unservable?.() !== undefined) {
      sendText(reply, 503, REPLACED);
      metrics?.pageRendered(route, 503);
      return;
    }
    const choice = await this.chooseBuilds(cookies, visitorCohort, pageOrigin(request.raw, https));
    const page = await this.pageFor(site.site.table, view, pathname, resolved, noindex, choice);
    if (page === undefined) {
      sendText(reply, 503, 'The host has not been built: run npm run build -w host');
      metrics?.pageRendered(route, 503);
      return;
    }
    if (cohort === undefined) reply.header('Set-Cookie', cohortCookie(visitorCohort, https));
    if (tickets) reply.header('Set-Cookie', tickets.cookie(choice, https));
    this.countBuilds(choice);
    if (metrics && !(resolved instanceof HttpError) && resolved.route.prerendered) {
      metrics.prerendered(route, page.prerendered ? 'hit' : 'miss');
    }
    if (!(resolved instanceof HttpError) && resolved.route.serverData) {
      const outcome = await this.options.dataPages?.read(request.raw, resolved, snapshotsOf(view, choice));
      if (outcome) await this.sendDataPage(request, reply, view, resolved, outcome, noindex, choice);
      // Without the visitor's data, the page as it is for everyone, rendered in the browser; never stored either.
      else await sendPreparedBody(request, reply, { ...page.body, cacheControl: DATA_PAGE_CACHE });
      metrics?.pageRendered(route, reply.statusCode);
      return;
    }
    await sendPreparedBody(request, reply, page.body);
    // As the visitor got it: a revalidated page is a 304.
    metrics?.pageRendered(route, reply.statusCode);
  }

  /** What every response carries (a page gets the whole set); false once a Host header naming no host is refused. */
  private admitted(request: FastifyRequest, reply: FastifyReply): boolean {
    setHeaders(reply, securityHeaders(this.options.config, { page: false, https: this.isHttps(request.raw) }));
    // A Host header that names no host gets no page and makes nothing be kept.
    if (isValidHost(request.headers.host)) return true;
    sendText(reply, 400, BAD_HOST);
    return false;
  }

  readonly routes: PartRoutes = async (app, onBadUrl) => {
    await app.register(fastifyCookie);
    if (this.followed.size > 0) {
      await app.register(hostnameViewsPlugin, { followed: this.followed });
      this.hostnameViews = app.hostnameViews;
    }
    app.addHook('onRequest', async (request, reply) => {
      if (!this.admitted(request, reply)) return reply;
    });
    // A path the router cannot decode still names no page: the app's 404, as for any other.
    onBadUrl(async (request, reply) => {
      if (this.admitted(request, reply)) await this.answerPage(request, reply);
    });
    const get = (url: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<void> | void) =>
      app.route({ method: ['GET', 'HEAD'], url, handler });
    get(
      '/config.json',
      (request, reply) => void sendJson(request, reply, this.visitorOf(request).view.configBody, 'no-cache'),
    );
    get(REMOTE_BUILDS_PATH, async (request, reply) => {
      const { https, cookies, cohort } = this.visitorOf(request);
      // The builds a page of this visitor would get now; no cohort yet: the stable builds, none given.
      const choice = await this.chooseBuilds(cookies, cohort, pageOrigin(request.raw, https));
      sendBuilds(request, reply, choice, this.tickets?.ticket(choice));
    });
    get('/robots.txt', (request, reply) =>
      sendBody(request, reply, {
        status: 200,
        type: 'text/plain; charset=utf-8',
        body: this.servedNow().robots.text,
        cacheControl: 'no-cache',
      }),
    );
    get('/*', (request, reply) => this.answerPage(request, reply));
    app.route({
      method: ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
      url: '/*',
      handler: (_request, reply) => sendText(reply.header('Allow', 'GET, HEAD'), 405, 'Method not allowed'),
    });
  };

  kept(): HostHandlerKept {
    const byHostname = this.hostnameViews?.kept() ?? [];
    const all = [this.served.defaultView, ...byHostname.map(([, view]) => view)];
    return {
      views: all.length,
      renders: all.filter((view) => view.page).length,
      pages: all.reduce((sum, view) => sum + (view.page?.pages.size ?? 0), 0),
      hostnames: byHostname.map(([hostname]) => hostname),
    };
  }
}

/** The host's routes over the site its options describe, and what they keep (for tests). */
export function createHostHandler(options: HostHandlerOptions): HostHandler {
  const site = new HostSite(options);
  return Object.assign(site.routes, { kept: () => site.kept() });
}
