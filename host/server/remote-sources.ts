/**
 * What the host's server knows of each remote, to start the route's remote from the HTML: the
 * files its pages need (read from its `mf-manifest.json`) and the markup of its prerendered
 * pages (`prerender/{Module}.json`). Each remote's deployment (`builds/latest.json`,
 * shared/deployment) is polled: the stable build is read from the remote's root, as it always
 * was; a canary under trial from its own copy (`builds/{id}/`, decision 21), again only when its
 * id changes; the build a page falls back to is only checked to be there. A build a team pins
 * for one browser (a signed preview) is read from its own copy when a page first asks for it.
 * A remote that is down or answers nonsense changes nothing: the last good answer is kept, and a
 * page is never held up waiting for a remote (a preview's first page waits a bounded time).
 */
import { LRUCache } from 'lru-cache';
import sanitizeHtml from 'sanitize-html';
import { boundedText } from 'server/bounded-fetch';
import { serverLog } from 'server/log';
import { boundedLogOnce } from 'server/log-once';
import {
  manifestFileUrl,
  manifestIntegrity,
  manifestPublicPath,
  manifestRemoteEntry,
  sharedFallbackScripts,
} from 'shared/remote-manifest';
import {
  buildManifestUrl,
  DEPLOYMENT_FILE,
  isRevoked,
  readDeploymentState,
  type DeploymentState,
} from 'shared/deployment';
import { grantsOf, refusalText, registryRoutes, type CompositionRefusal } from 'shared/composition';
import { manifestPublishedRoutes, type PublishedRoute } from 'shared/published-routes';
import { isAllowedRemoteUrl, type RuntimeConfig } from 'shared/runtime-config';
import { RENDER_SCRIPT, RENDER_STYLES } from 'shared/render-contract';
import { loadRenderer, type RemoteRender, type RenderPools } from './remote-renderers';

export interface ExposeFiles {
  /** The module's own scripts, loaded when the page is. */
  scripts: string[];
  /**
   * The remote's copies of the shared modules the module uses that the host's page does not
   * provide (`shared/remote-manifest`): the runtime asks for them only once the remote's
   * entry has run. Never copies of what the host provides.
   */
  sharedScripts: string[];
}

export interface PrerenderedMarkup {
  /** The remote's build that rendered it: the browser uses the data only with that build's code. */
  buildId: string;
  /** Sanitised markup of the page. */
  html: string;
  /** The query cache the page's first render reads (TanStack's dehydrated state). */
  state: unknown;
}

export interface RemoteSnapshot {
  buildId: string;
  manifestUrl: string;
  remoteEntry: string;
  exposes: ReadonlyMap<string, ExposeFiles>;
  /**
   * The integrity of each script (by URL) that the remote's manifest gives: the browser loads the
   * scripts with it, so a preload must carry the same, or it is not used.
   */
  integrity: ReadonlyMap<string, string>;
  prerendered: ReadonlyMap<string, PrerenderedMarkup>;
  /** The styles of the prerendered pages, which the remote's scripts would otherwise inject. */
  prerenderCss?: string;
  /**
   * The routes its manifest publishes, as far as they were accepted, and why the others were not;
   * a manifest built before the format publishes none, and the registry's routes of the remote
   * stand for them (none for a remote the registry does not name); a routes document refused as a
   * whole leaves the routes of the stable build read before (publishedRoutesIn).
   */
  published?: PublishedRoutes;
  /**
   * What renders the remote's data pages (the registry's `serverData` routes) per request, with
   * their styles: its checked `prerender/render.js`, run in the remote's render workers
   * (remote-renderers.ts). None: the remote has no such page, its bundle was refused, or no
   * workers were given, and those pages are rendered in the browser.
   */
  renderer?: { render: RemoteRender; css: string };
}

/** A remote's deployment as the host's server last read it, with the builds it serves from it. */
export interface RemoteDeployment {
  /** Its `builds/latest.json`; a canary whose own copy could not be read is left out (stable for all). */
  state: DeploymentState;
  /** By build id, the snapshot of each build visitors get: the stable build (the root) and the canary (its copy). */
  builds: ReadonlyMap<string, RemoteSnapshot>;
  /**
   * The builds it names whose own copy (`builds/{id}/mf-manifest.json`) was there when the
   * deployment named them: a page's fallback may only be one of these.
   */
  copies: ReadonlySet<string>;
  /**
   * When the deployment last changed, as far as this server knows (changedAt): pages given builds
   * within a while of it ask for their builds on each navigation (shared/deployment's isUnsettled).
   */
  changedAt?: number;
}

/**
 * When a remote's deployment last changed: its `builds/latest.json`'s Last-Modified (every deploy
 * command writes the file anew and renames it over the old one, and the remotes' servers and nginx
 * send its modification time), or when this server first read it as it is now, whichever is later.
 * Not the deployment's `timestamp`, which is when its stable build was built: an abort or a
 * rollback keeps or moves it back. A deployment first read without a Last-Modified has no known
 * change; a Last-Modified in the future (another machine's clock) counts as now.
 */
export function changedAtOf(
  lastModified: string | null,
  seen: { text: string; at: number | undefined } | undefined,
  text: string,
  now: number,
): number | undefined {
  const modified = lastModified ? Math.min(Date.parse(lastModified), now) : Number.NaN;
  const at = seen === undefined ? undefined : seen.text === text ? seen.at : now;
  if (Number.isNaN(modified)) return at;
  return at === undefined ? modified : Math.max(modified, at);
}

/** A remote's published routes as the host's server read them from one of its manifests. */
export interface PublishedRoutes {
  routes: readonly PublishedRoute[];
  refusals: readonly CompositionRefusal[];
}

/**
 * What the manifest `body` of `remote` publishes (`shared/published-routes`), else the registry's
 * routes. A routes document refused as a whole (another version, not an object) says nothing of
 * the remote's routes: the ones last read (`kept`) stand, else the registry's, and `onRefused`
 * hears why.
 */
export function publishedRoutesIn(
  remote: string,
  body: unknown,
  kept?: PublishedRoutes,
  onRefused?: (refusal: CompositionRefusal) => void,
): PublishedRoutes {
  const reading = manifestPublishedRoutes(body, { remote });
  if (!reading) return { routes: registryRoutes(remote), refusals: [] };
  if (reading.remote === undefined) {
    for (const refusal of reading.refusals) onRefused?.({ remote, ...refusal });
    return { routes: kept?.routes ?? registryRoutes(remote), refusals: [] };
  }
  return { routes: reading.routes, refusals: reading.refusals.map((refusal) => ({ remote, ...refusal })) };
}

/** The most a remote's file of each kind may weigh: a larger answer is refused, never read whole. */
export const REMOTE_FILE_LIMITS = {
  /** `mf-manifest.json`, as the API reads it. */
  manifest: 512 * 1024,
  /** `builds/latest.json`. */
  deployment: 64 * 1024,
  /** `prerender/{Module}.json`: a page's markup and its query cache. */
  prerendered: 1024 * 1024,
  /** `prerender/pages.css` and the render bundle's styles. */
  styles: 1024 * 1024,
  /** `prerender/render.js`: a bundle of the remote's pages and what they import. */
  renderScript: 16 * 1024 * 1024,
} as const;

export interface RemoteSources {
  /** The newest good snapshot of a remote's stable build, or undefined while none has been read. */
  snapshot(remote: string): RemoteSnapshot | undefined;
  /** The remote's deployment and its builds' snapshots, or undefined while none has been read. */
  deployment(remote: string): RemoteDeployment | undefined;
  /**
   * A build of the remote read from its own copy, for a page pinned to it (a verified preview):
   * the deployment's own snapshot when it serves that build, else read on first demand and kept
   * (a few, the least recently used dropped). Undefined when it cannot be read within the
   * timeout (the page then gets the builds it would get anyway; the reading goes on and is kept
   * for the next page); never rejects.
   */
  pinned(remote: string, buildId: string): Promise<RemoteSnapshot | undefined>;
  /** Reads every remote's latest build now (and fetches what changed); never rejects. */
  refresh(): Promise<void>;
  /** Polls every `intervalMs`; returns a function that stops polling. */
  start(intervalMs: number): () => void;
}

export interface RemoteSourcesOptions {
  /** Manifest URL of each remote, as the runtime configuration gives it to browsers. */
  remotes: Readonly<Record<string, string>>;
  /**
   * The origins remote code may come from (`allowedRemoteOrigins`): a manifest whose scripts are
   * elsewhere is refused, as the browser refuses it. None given: the manifests' own origins.
   */
  allowedOrigins?: readonly string[];
  /**
   * The shared modules the host's page provides (its build's `mf-manifest.json`); the remotes'
   * copies of the others are preloaded with their pages. None given: none are preloaded.
   */
  hostShared?: ReadonlySet<string>;
  fetchImpl?: typeof fetch;
  /** Longest wait for one answer from a remote. */
  timeoutMs?: number;
  log?: (message: string) => void;
  /** Called on every failed read of a remote (the log says so once per new reason): for a metric. */
  onFailure?: (remote: string) => void;
  /** Builds pinned by previews kept at most, the least recently used dropped first (MAX_PINNED_BUILDS). */
  maxPinned?: number;
  /**
   * The processes that run the remotes' render bundles (remote-renderers.ts); none given: no
   * bundle is run, and the data pages are rendered in the browser.
   */
  renderPools?: RenderPools;
  /**
   * The paths each remote was granted (`grantsOf`): only its routes there have their prerendered
   * markup read and its render bundle run. None given: every route its manifest publishes.
   */
  grants?: Pick<RuntimeConfig, 'routeGrants'>;
  /** Now, in ms since the epoch (tests). */
  now?: () => number;
}

/**
 * Builds read for previews kept at most: a gate previews one build of one remote at a time, and
 * each kept build holds its render bundle.
 */
export const MAX_PINNED_BUILDS = 4;
/** Reasons logged once each at most, then no more (a remote's own failures are logged per remote). */
const MAX_LOGGED_REASONS = 256;

/**
 * What a page's prerendered markup may hold: what the content build's Markdown allowlist emits,
 * the page's frame, and the game's boxes (buttons that do nothing until the app takes over; no
 * script, form or event handler gets through).
 */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'article', 'h1', 'time', 'span', 'div', 'section', 'button'],
  allowedAttributes: {
    '*': ['class', 'id', 'aria-*', 'role', 'lang', 'dir', 'title', 'data-state'],
    a: ['href', 'name', 'target', 'rel'],
    button: ['type', 'disabled'],
    time: ['datetime'],
    img: ['src', 'alt', 'width', 'height'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
};

export function sanitizePrerenderedHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE).trim();
}

/** A size, as the icons give theirs: `2.25rem`, `1.15em`, `24px`, `24`. */
const LENGTH = /^\d+(?:\.\d+)?(?:rem|em|px)?$/;

/**
 * What a page rendered with its data may hold besides (remote-renderers.ts): its icons (inline
 * SVG of paths only, in a box of a size and nothing else, so nothing moves when the app takes
 * over) and the states its parts are marked with.
 */
const SANITIZE_DATA_PAGE: sanitizeHtml.IOptions = {
  ...SANITIZE,
  allowedTags: [...(SANITIZE.allowedTags as string[]), 'svg', 'path', 'g', 'label', 'input'],
  allowedAttributes: {
    ...SANITIZE.allowedAttributes,
    '*': [
      ...((SANITIZE.allowedAttributes as Record<string, string[]>)['*'] ?? []),
      'data-status',
      'data-icon',
      'style',
    ],
    svg: ['viewbox', 'xmlns', 'width', 'height', 'focusable'],
    path: ['d', 'fill'],
    label: ['for'],
    input: [
      'type',
      'name',
      'value',
      'checked',
      'required',
      'autocomplete',
      'inputmode',
      'autocapitalize',
      'spellcheck',
    ],
  },
  // A form in the markup must not be sent by the browser before the app has taken it over (its
  // fields would go into the address): it arrives as a box of the same class, which sends nothing.
  transformTags: { form: (_tagName, attribs) => ({ tagName: 'div', attribs }) },
  allowedStyles: {
    '*': {
      display: [/^inline-block$/],
      'flex-shrink': [/^0$/],
      width: [LENGTH],
      height: [LENGTH],
    },
  },
};

export function sanitizeDataPageHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_DATA_PAGE).trim();
}

interface ManifestJson {
  exposes?: Array<{ name?: unknown; assets?: { js?: { sync?: unknown } } }>;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The manifest's entry and per-module scripts as absolute URLs, where the federation runtime will
 * ask for them, and their integrity; throws on a manifest that lacks them or whose scripts are not
 * at an allowed origin (`allowedOrigins`; none given: the manifest's own). `hostShared`: the
 * shared modules the host provides (none known: no shared scripts).
 */
export function readManifest(
  manifestUrl: string,
  body: unknown,
  hostShared?: ReadonlySet<string>,
  allowedOrigins: readonly string[] = [new URL(manifestUrl).origin],
): Pick<RemoteSnapshot, 'remoteEntry' | 'exposes' | 'integrity'> {
  const manifest = body as ManifestJson;
  const entry = manifestRemoteEntry(body);
  if (!entry) throw new Error('it names no remoteEntry');
  const publicPath = manifestPublicPath(manifestUrl, body);
  if (publicPath === undefined) throw new Error('its publicPath is neither "auto" nor an absolute URL');
  const url = (file: string) => manifestFileUrl(publicPath, file);
  const remoteEntry = url(entry.file);
  if (!isAllowedRemoteUrl(remoteEntry, allowedOrigins)) {
    throw new Error(`its scripts are at ${new URL(remoteEntry).origin}, which is not an allowed remote origin`);
  }
  const integrity = new Map([...manifestIntegrity(body)].map(([file, value]) => [url(file), value]));
  const exposes = new Map<string, ExposeFiles>();
  for (const expose of manifest.exposes ?? []) {
    if (typeof expose.name !== 'string') continue;
    const scripts = strings(expose.assets?.js?.sync).map(url);
    const sharedScripts = hostShared
      ? sharedFallbackScripts(manifest, expose.name, hostShared)
          .map(url)
          .filter((script) => !scripts.includes(script))
      : [];
    exposes.set(expose.name, { scripts, sharedScripts });
  }
  return { remoteEntry, exposes, integrity };
}

/** The shared modules a build provides, from its `mf-manifest.json` (the host's: what its page provides). */
export function sharedModulesOf(body: unknown): Set<string> {
  const shared = (body as { shared?: unknown } | null)?.shared;
  if (!Array.isArray(shared)) throw new Error('it lists no shared modules');
  return new Set(
    shared.flatMap((entry: { name?: unknown } | null) => (typeof entry?.name === 'string' ? [entry.name] : [])),
  );
}

function hasDataPages({ routes }: PublishedRoutes): boolean {
  return routes.some((route) => route.serverData);
}

function prerenderedModules({ routes }: PublishedRoutes): string[] {
  return [...new Set(routes.filter((route) => route.prerendered).map((route) => route.module))];
}

export function createRemoteSources(options: RemoteSourcesOptions): RemoteSources {
  const fetchImpl = options.fetchImpl ?? fetch;
  const timeoutMs = options.timeoutMs ?? 3_000;
  const maxPinned = options.maxPinned ?? MAX_PINNED_BUILDS;
  const log = options.log ?? ((message) => serverLog().warn(message));
  /** What changed for the better or as deployed, at info: a given `log` hears it too. */
  const note = options.log ?? ((message) => serverLog().info(message));
  const now = options.now ?? Date.now;
  const deployments = new Map<string, RemoteDeployment>();
  /** One refresh of a remote at a time; a poll that finds one running waits for it. */
  const running = new Map<string, Promise<void>>();
  /** The last failure logged per remote, so a remote that stays down is logged once, not every poll. */
  const lastFailure = new Map<string, string>();
  /** Builds read for previews, by `remote/id`, the least recently used dropped past maxPinned. */
  const pinnedBuilds = new LRUCache<string, RemoteSnapshot>({ max: maxPinned });
  /** Previews being read, by `remote/id`: the pages that ask meanwhile share the reading. */
  const pinnedReads = new Map<string, Promise<RemoteSnapshot>>();
  /** Each remote's deployment as last read, and when it changed (changedAtOf). */
  const seenStates = new Map<string, { text: string; at: number | undefined }>();
  /** Logs a canary or a preview that cannot be read, and why, once each. */
  const logOnce = boundedLogOnce(log, MAX_LOGGED_REASONS);

  const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

  async function get(url: string, method = 'GET'): Promise<Response> {
    const response = await fetchImpl(url, { method, signal: AbortSignal.timeout(timeoutMs), cache: 'no-store' });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    return response;
  }

  async function getText(url: string, maxBytes: number): Promise<string> {
    return boundedText(await get(url), url, maxBytes);
  }

  async function getJson(url: string, maxBytes: number): Promise<unknown> {
    return JSON.parse(await getText(url, maxBytes)) as unknown;
  }

  /** The routes of a remote's build that it was granted: only these are read ahead or rendered. */
  function grantedOf(remote: string, published: PublishedRoutes): PublishedRoutes {
    if (!options.grants) return published;
    const granted = new Set(grantsOf(options.grants, remote));
    return { ...published, routes: published.routes.filter((route) => granted.has(route.path)) };
  }

  /**
   * The remote's render bundle, at an allowed origin as its scripts must be, checked against the
   * digest its manifest gives and loaded into the remote's render workers (remote-renderers.ts);
   * a bundle that is missing or refused leaves the rest of the build in use, its data pages
   * rendered in the browser.
   */
  async function readRenderer(
    remote: string,
    manifestUrl: string,
    integrity: ReadonlyMap<string, string>,
  ): Promise<RemoteSnapshot['renderer']> {
    const pools = options.renderPools;
    if (!pools) return undefined;
    const scriptUrl = [...integrity.keys()].find((url) => url.endsWith(`/${RENDER_SCRIPT}`));
    try {
      if (!scriptUrl) throw new Error(`its manifest lists no ${RENDER_SCRIPT}`);
      const cssUrl = new URL(RENDER_STYLES, scriptUrl.slice(0, -RENDER_SCRIPT.length)).href;
      const allowed = options.allowedOrigins ?? [new URL(manifestUrl).origin];
      for (const url of [scriptUrl, cssUrl]) {
        if (!isAllowedRemoteUrl(url, allowed)) {
          throw new Error(`it is at ${new URL(url).origin}, which is not an allowed remote origin`);
        }
      }
      const script = await getText(scriptUrl, REMOTE_FILE_LIMITS.renderScript);
      const render = await loadRenderer(pools.pool(remote), script, integrity.get(scriptUrl));
      return { render, css: await getText(cssUrl, REMOTE_FILE_LIMITS.styles) };
    } catch (error) {
      log(
        `the ${remote} remote's ${RENDER_SCRIPT} is not used (${reasonOf(error)}); its pages with data are rendered in the browser`,
      );
      return undefined;
    }
  }

  /** A build's snapshot from the manifest at `manifestUrl` and the files beside it (the root, or the build's own copy). */
  async function readSnapshot(remote: string, manifestUrl: string, buildId: string): Promise<RemoteSnapshot> {
    const body = await getJson(manifestUrl, REMOTE_FILE_LIMITS.manifest);
    const { remoteEntry, exposes, integrity } = readManifest(
      manifestUrl,
      body,
      options.hostShared,
      options.allowedOrigins,
    );
    const published = publishedRoutesIn(remote, body, stableOf(remote)?.published, (refusal) =>
      logOnce(refusalText(refusal)),
    );
    const granted = grantedOf(remote, published);
    const prerendered = new Map<string, PrerenderedMarkup>();
    const modules = prerenderedModules(granted);
    const prerenderCss =
      modules.length > 0
        ? await getText(new URL('prerender/pages.css', manifestUrl).href, REMOTE_FILE_LIMITS.styles)
        : undefined;
    for (const module of modules) {
      const url = new URL(`prerender/${module}.json`, manifestUrl).href;
      const published = (await getJson(url, REMOTE_FILE_LIMITS.prerendered)) as {
        buildId?: unknown;
        html?: unknown;
        state?: unknown;
      } | null;
      if (typeof published?.buildId !== 'string' || typeof published.html !== 'string' || !published.state) {
        throw new Error(`${url} is not a prerendered page`);
      }
      prerendered.set(module, {
        buildId: published.buildId,
        html: sanitizePrerenderedHtml(published.html),
        state: published.state,
      });
    }
    const renderer = hasDataPages(granted) ? await readRenderer(remote, manifestUrl, integrity) : undefined;
    return { buildId, manifestUrl, remoteEntry, exposes, integrity, prerendered, prerenderCss, renderer, published };
  }

  /**
   * Whether a build's own copy is there (its manifest answers a HEAD, or a GET where HEAD is not
   * allowed): true or false, or undefined when the remote did not say (down, 5xx), to be asked
   * again at the next poll.
   */
  async function hasCopy(root: string, id: string): Promise<boolean | undefined> {
    const ask = (method: string) =>
      fetchImpl(buildManifestUrl(root, id), { method, signal: AbortSignal.timeout(timeoutMs), cache: 'no-store' });
    try {
      let response = await ask('HEAD');
      if (response.status === 405 || response.status === 501) {
        response = await ask('GET');
        await response.arrayBuffer();
      }
      if (response.ok) return true;
      return response.status === 404 || response.status === 410 ? false : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The canary's snapshot from its own copy: the one already read while its id stays; a copy
   * that cannot be read leaves the canary out (everyone gets the stable build), said once.
   */
  async function readCanary(
    remote: string,
    root: string,
    state: DeploymentState,
    current: RemoteDeployment | undefined,
  ): Promise<RemoteSnapshot | undefined> {
    const { canary } = state;
    if (!canary) return undefined;
    const manifestUrl = buildManifestUrl(root, canary.id);
    const known = current?.builds.get(canary.id);
    if (known?.manifestUrl === manifestUrl) return known;
    try {
      return await readSnapshot(remote, manifestUrl, canary.id);
    } catch (error) {
      logOnce(
        `the ${remote} remote's canary build ${canary.id} cannot be read from its copy (${reasonOf(error)}); every visitor gets the stable build ${state.id}`,
      );
      return undefined;
    }
  }

  /** The builds a page may fall back to whose copy is there: the stable build before this one, and the stable build under a canary. */
  async function readCopies(
    root: string,
    state: DeploymentState,
    current: RemoteDeployment | undefined,
  ): Promise<Set<string>> {
    const fallbacks = [state.previous, state.canary ? state.id : undefined].filter(
      (id): id is string => id !== undefined,
    );
    const copies = new Set<string>();
    for (const id of fallbacks) {
      // A build's copy never changes: one found while the deployment named it is still there.
      const found = current?.copies.has(id) || (await hasCopy(root, id));
      if (found) copies.add(id);
    }
    return copies;
  }

  /** The deployment's state and when it last changed (changedAtOf). */
  async function readState(remote: string): Promise<{ read: DeploymentState; changedAt: number | undefined }> {
    const url = new URL(DEPLOYMENT_FILE, options.remotes[remote]).href;
    const response = await get(url);
    const read = readDeploymentState(JSON.parse(await boundedText(response, url, REMOTE_FILE_LIMITS.deployment)));
    if (!read) throw new Error(`${DEPLOYMENT_FILE} has no build id`);
    const text = JSON.stringify(read);
    const changedAt = changedAtOf(response.headers.get('last-modified'), seenStates.get(remote), text, now());
    seenStates.set(remote, { text, at: changedAt });
    return { read, changedAt };
  }

  async function read(remote: string): Promise<void> {
    const root = options.remotes[remote];
    if (root === undefined) return;
    const { read, changedAt } = await readState(remote);
    const current = deployments.get(remote);
    const known = current?.builds.get(read.id);
    const stable = known?.manifestUrl === root ? known : await readSnapshot(remote, root, read.id);
    const canary = await readCanary(remote, root, read, current);
    const state: DeploymentState = { ...read };
    if (!canary) delete state.canary;
    const copies = await readCopies(root, state, current);
    const builds = new Map([[stable.buildId, stable]]);
    if (canary) builds.set(canary.buildId, canary);
    deployments.set(remote, { state, builds, copies, ...(changedAt === undefined ? {} : { changedAt }) });
    // A preview's build kept from before its revocation holds its render bundle: let it go.
    for (const id of state.revoked ?? []) pinnedBuilds.delete(`${remote}/${id}`);
    if (current && current.state.id !== state.id) note(`the ${remote} remote is now build ${state.id}`);
    const was = current?.state.canary;
    if (state.canary && (was?.id !== state.canary.id || was.percent !== state.canary.percent)) {
      note(`the ${remote} remote's canary build ${state.canary.id} gets ${state.canary.percent} % of visitors`);
    } else if (was && !state.canary) note(`the ${remote} remote has no canary build now`);
  }

  function stableOf(remote: string): RemoteSnapshot | undefined {
    const deployment = deployments.get(remote);
    return deployment?.builds.get(deployment.state.id);
  }

  function refreshOne(remote: string): Promise<void> {
    const pending = running.get(remote);
    if (pending) return pending;
    const done = read(remote)
      .then(() => {
        if (lastFailure.has(remote)) note(`the ${remote} remote answers again`);
        lastFailure.delete(remote);
      })
      .catch((error: unknown) => {
        const reason = reasonOf(error);
        options.onFailure?.(remote);
        if (lastFailure.get(remote) !== reason) {
          const kept = deployments.has(remote) ? 'keeping its last good build' : 'its pages get no hints for now';
          log(`cannot read the ${remote} remote (${reason}); ${kept}`);
        }
        lastFailure.set(remote, reason);
      })
      .finally(() => running.delete(remote));
    running.set(remote, done);
    return done;
  }

  /** A preview's build read from its copy, kept once read; shared by the pages that ask meanwhile. */
  function readPinned(remote: string, buildId: string): Promise<RemoteSnapshot> {
    const key = `${remote}/${buildId}`;
    const kept = pinnedBuilds.get(key);
    if (kept) return Promise.resolve(kept);
    let reading = pinnedReads.get(key);
    if (!reading) {
      const root = options.remotes[remote];
      if (root === undefined) return Promise.reject(new Error(`no remote ${remote} is configured`));
      reading = readSnapshot(remote, buildManifestUrl(root, buildId), buildId)
        .then((snapshot) => {
          pinnedBuilds.set(key, snapshot);
          return snapshot;
        })
        .finally(() => pinnedReads.delete(key));
      pinnedReads.set(key, reading);
    }
    return reading;
  }

  return {
    snapshot: stableOf,
    deployment: (remote) => deployments.get(remote),
    async pinned(remote, buildId) {
      const deployment = deployments.get(remote);
      // A revoked build's code is never read, let alone run, for a page.
      if (isRevoked(deployment?.state, buildId)) return undefined;
      const served = deployment?.builds.get(buildId);
      if (served) return served;
      let stopWaiting = () => {};
      const late = new Promise<undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), timeoutMs);
        stopWaiting = () => clearTimeout(timer);
      });
      try {
        const snapshot = await Promise.race([readPinned(remote, buildId), late]);
        if (!snapshot)
          logOnce(`the ${remote} remote's build ${buildId} was not read within ${timeoutMs} ms for a preview`);
        return snapshot;
      } catch (error) {
        logOnce(
          `a preview of the ${remote} remote's build ${buildId} pins nothing: its copy cannot be read (${reasonOf(error)})`,
        );
        return undefined;
      } finally {
        stopWaiting();
      }
    },
    refresh: async () => {
      await Promise.all(Object.keys(options.remotes).map(refreshOne));
    },
    start(intervalMs) {
      void this.refresh();
      const timer = setInterval(() => void this.refresh(), intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
