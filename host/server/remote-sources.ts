/**
 * What the host's server knows of each remote, to start the route's remote from the HTML: the
 * files its pages need (read from its `mf-manifest.json`) and the markup of its prerendered
 * pages (`prerender/{Module}.json`). Each remote's `builds/latest.json` is polled;
 * a new build id fetches the rest again. A remote that is down or answers nonsense changes
 * nothing: the last good answer is kept, and a page is never held up waiting for a remote.
 */
import sanitizeHtml from 'sanitize-html';
import {
  manifestFileUrl,
  manifestIntegrity,
  manifestPublicPath,
  manifestRemoteEntry,
  sharedFallbackScripts,
} from 'shared/remote-manifest';
import { REMOTE_NAMES, REMOTES, type RemoteName, type RemoteSpec } from 'shared/remotes';
import { isAllowedRemoteUrl } from 'shared/runtime-config';
import { RENDER_SCRIPT, RENDER_STYLES, type RenderDataPage } from 'shared/render-contract';
import { loadRenderer } from './remote-renderers';

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
   * What renders the remote's data pages (the registry's `serverData` routes) per request, with
   * their styles: its checked `prerender/render.js` (remote-renderers.ts). None: the remote has
   * no such page, or its bundle was refused, and those pages are rendered in the browser.
   */
  renderer?: { render: RenderDataPage; css: string };
}

export interface RemoteSources {
  /** The newest good snapshot of a remote, or undefined while none has been read. */
  snapshot(remote: RemoteName): RemoteSnapshot | undefined;
  /** Reads every remote's latest build now (and fetches what changed); never rejects. */
  refresh(): Promise<void>;
  /** Polls every `intervalMs`; returns a function that stops polling. */
  start(intervalMs: number): () => void;
}

export interface RemoteSourcesOptions {
  /** Manifest URL of each remote, as the runtime configuration gives it to browsers. */
  remotes: Readonly<Record<RemoteName, string>>;
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
  onFailure?: (remote: RemoteName) => void;
}

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

function hasDataPages(remote: RemoteName): boolean {
  const spec: RemoteSpec = REMOTES[remote];
  return Object.values(spec.exposes).some((expose) => expose.routes.some((route) => route.serverData));
}

function prerenderedModules(remote: RemoteName): string[] {
  const spec: RemoteSpec = REMOTES[remote];
  return Object.entries(spec.exposes)
    .filter(([, expose]) => expose.routes.some((route) => route.prerendered))
    .map(([module]) => module);
}

export function createRemoteSources(options: RemoteSourcesOptions): RemoteSources {
  const fetchImpl = options.fetchImpl ?? fetch;
  const timeoutMs = options.timeoutMs ?? 3_000;
  const log = options.log ?? ((message) => console.warn(`[host] ${message}`));
  const snapshots = new Map<RemoteName, RemoteSnapshot>();
  /** One refresh of a remote at a time; a poll that finds one running waits for it. */
  const running = new Map<RemoteName, Promise<void>>();
  /** The last failure logged per remote, so a remote that stays down is logged once, not every poll. */
  const lastFailure = new Map<RemoteName, string>();

  async function getJson(url: string): Promise<unknown> {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), cache: 'no-store' });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    return response.json() as Promise<unknown>;
  }

  async function getText(url: string): Promise<string> {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), cache: 'no-store' });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    return response.text();
  }

  /**
   * The remote's render bundle, checked against the digest its manifest gives and evaluated
   * (remote-renderers.ts); a bundle that is missing or refused leaves the rest of the build in
   * use, its data pages rendered in the browser.
   */
  async function readRenderer(
    remote: RemoteName,
    integrity: ReadonlyMap<string, string>,
  ): Promise<RemoteSnapshot['renderer']> {
    const scriptUrl = [...integrity.keys()].find((url) => url.endsWith(`/${RENDER_SCRIPT}`));
    try {
      if (!scriptUrl) throw new Error(`its manifest lists no ${RENDER_SCRIPT}`);
      const render = loadRenderer(await getText(scriptUrl), integrity.get(scriptUrl));
      const css = await getText(new URL(RENDER_STYLES, scriptUrl.slice(0, -RENDER_SCRIPT.length)).href);
      return { render, css };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log(
        `the ${remote} remote's ${RENDER_SCRIPT} is not used (${reason}); its pages with data are rendered in the browser`,
      );
      return undefined;
    }
  }

  async function read(remote: RemoteName): Promise<void> {
    const manifestUrl = options.remotes[remote];
    const latest = (await getJson(new URL('builds/latest.json', manifestUrl).href)) as { id?: unknown };
    if (typeof latest?.id !== 'string' || latest.id === '') throw new Error('builds/latest.json has no build id');
    const current = snapshots.get(remote);
    if (current?.buildId === latest.id && current.manifestUrl === manifestUrl) return;
    const { remoteEntry, exposes, integrity } = readManifest(
      manifestUrl,
      await getJson(manifestUrl),
      options.hostShared,
      options.allowedOrigins,
    );
    const prerendered = new Map<string, PrerenderedMarkup>();
    const modules = prerenderedModules(remote);
    const prerenderCss =
      modules.length > 0 ? await getText(new URL('prerender/pages.css', manifestUrl).href) : undefined;
    for (const module of modules) {
      const url = new URL(`prerender/${module}.json`, manifestUrl).href;
      const published = (await getJson(url)) as { buildId?: unknown; html?: unknown; state?: unknown } | null;
      if (typeof published?.buildId !== 'string' || typeof published.html !== 'string' || !published.state) {
        throw new Error(`${url} is not a prerendered page`);
      }
      prerendered.set(module, {
        buildId: published.buildId,
        html: sanitizePrerenderedHtml(published.html),
        state: published.state,
      });
    }
    const renderer = hasDataPages(remote) ? await readRenderer(remote, integrity) : undefined;
    snapshots.set(remote, {
      buildId: latest.id,
      manifestUrl,
      remoteEntry,
      exposes,
      integrity,
      prerendered,
      prerenderCss,
      renderer,
    });
    if (current) log(`the ${remote} remote is now build ${latest.id}`);
  }

  function refreshOne(remote: RemoteName): Promise<void> {
    const pending = running.get(remote);
    if (pending) return pending;
    const done = read(remote)
      .then(() => {
        if (lastFailure.has(remote)) log(`the ${remote} remote answers again`);
        lastFailure.delete(remote);
      })
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        options.onFailure?.(remote);
        if (lastFailure.get(remote) !== reason) {
          const kept = snapshots.has(remote) ? 'keeping its last good build' : 'its pages get no hints for now';
          log(`cannot read the ${remote} remote (${reason}); ${kept}`);
        }
        lastFailure.set(remote, reason);
      })
      .finally(() => running.delete(remote));
    running.set(remote, done);
    return done;
  }

  return {
    snapshot: (remote) => snapshots.get(remote),
    refresh: async () => {
      await Promise.all(REMOTE_NAMES.map(refreshOne));
    },
    start(intervalMs) {
      void this.refresh();
      const timer = setInterval(() => void this.refresh(), intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
