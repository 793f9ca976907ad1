/**
 * What the federation runtime downloads, checked before any of it runs
 * (docs/decisions/0019-remote-code-integrity.md):
 *
 * - A manifest, a remote entry and every script or preload the runtime adds must be at one of
 *   the allowed remote origins (`remoteOrigins`). A manifest whose files are elsewhere (another
 *   `publicPath`), whose public path is a function the runtime would run, or whose entry is not a
 *   classic script (an ES module cannot carry an integrity) is refused.
 * - Every script the runtime adds (a remote's entry, the chunks it loads ahead) and every script
 *   preload carries the integrity the remote's manifest gives for it, with `crossorigin`, so the
 *   browser runs it only if its bytes are those the remote's build emitted. A script the manifest
 *   gives no integrity for is refused. The remote's own runtime checks its chunks against the
 *   digests in its entry, which this has checked.
 * - When the runtime preloads a page (a link's intent, or `loadRemote`), the remote's own copies of
 *   the shared modules that page needs and the page does not hold yet (the manifest's
 *   `sharedFallbacks`) are preloaded with them, with their integrity: the remote's runtime asks
 *   for them only once its entry has run, a round trip later (docs/decisions/0016).
 * - Every download is bounded by `remoteTimeoutMs`: a server that accepts a connection and never
 *   answers would otherwise leave a route loading forever. Non-2xx manifests fail here too, with
 *   their status, instead of as a JSON parse error.
 *
 * A refusal fails the download like a network error: the loader's retries, the reload guard and
 * the remote's in-layout error follow, as for a remote that is down.
 */
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import {
  manifestFileUrl,
  manifestIntegrity,
  manifestPublicPath,
  manifestRemoteEntry,
  sharedFallbackScripts,
} from 'shared/remote-manifest';
import { isAllowedRemoteUrl } from 'shared/runtime-config-checks';
import type { BuildAttribution } from '../telemetry/build-attribution';
import type { ManifestAnswer, ManifestReads } from './manifest-reads';

export interface LoadingPluginOptions {
  timeoutMs: number;
  /** The origins remote code may come from (`allowedRemoteOrigins` of the configuration). */
  allowedOrigins: readonly string[];
  /**
   * Refuse a script the manifest gives no integrity for. Off only for the host's development
   * build, whose remotes run under `webpack serve` and record none (their chunks change under a
   * running page with every hot update).
   */
  requireIntegrity: boolean;
  /** Told of every manifest accepted, by remote: which build of it the page runs, and where its files are. */
  builds?: Pick<BuildAttribution, 'record'>;
  /** Manifests the page read before the runtime asked for them: each answer is used once. */
  manifestReads?: Pick<ManifestReads, 'take'>;
}

/** Remote code the host will not load; its message names the URL and why. */
export class RemoteRefusedError extends Error {
  constructor(url: string, reason: string) {
    super(`Refused ${url}: ${reason}`);
    this.name = 'RemoteRefusedError';
  }
}

/** The page's share scopes, as the runtime keeps them: by scope, module and version. */
type ShareScopes = Record<string, Record<string, Record<string, { lib?: unknown; loaded?: boolean }>>>;

/** The shared modules the page already holds a copy of (the host's, or a remote's it has run). */
export function sharedOnPage(scopes: ShareScopes): Set<string> {
  const held = new Set<string>();
  for (const scope of Object.values(scopes)) {
    for (const [name, versions] of Object.entries(scope)) {
      if (Object.values(versions).some((copy) => copy.loaded === true || typeof copy.lib === 'function')) {
        held.add(name);
      }
    }
  }
  return held;
}

/** The entry types the runtime loads with a `<script>` element: the others are ES modules or SystemJS. */
const CLASSIC_SCRIPT_ENTRY = new Set(['global', 'var', 'script']);

export function loadingPlugin({
  timeoutMs,
  allowedOrigins,
  requireIntegrity,
  builds,
  manifestReads,
}: LoadingPluginOptions): ModuleFederationRuntimePlugin {
  /** The integrity of each remote file the manifests read so far name, by absolute URL. */
  const integrityByUrl = new Map<string, string>();
  /** The manifests accepted, by remote name, with where their files are. */
  const manifests = new Map<string, { manifest: unknown; publicPath: string }>();

  const absolute = (url: string) => new URL(url, typeof document === 'undefined' ? undefined : document.baseURI).href;

  function checkOrigin(url: string): void {
    if (!isAllowedRemoteUrl(url, allowedOrigins)) {
      throw new RemoteRefusedError(url, `${originOf(url)} is not an allowed remote origin (remoteOrigins)`);
    }
  }

  /**
   * Checks a manifest and records its integrity; throws a RemoteRefusedError for one not to
   * load. Gives the public path of one it accepted.
   */
  function acceptManifest(manifestUrl: string, manifest: unknown): string | undefined {
    const entry = manifestRemoteEntry(manifest);
    // Not a manifest the runtime can use: it says so itself.
    if (!entry) return undefined;
    const publicPath = manifestPublicPath(manifestUrl, manifest);
    if (publicPath === undefined) {
      throw new RemoteRefusedError(manifestUrl, 'its publicPath is neither "auto" nor an absolute URL');
    }
    const entryUrl = manifestFileUrl(publicPath, entry.file);
    checkOrigin(entryUrl);
    if (!CLASSIC_SCRIPT_ENTRY.has(entry.type)) {
      throw new RemoteRefusedError(
        entryUrl,
        `its type "${entry.type}" is not a script a browser checks the integrity of`,
      );
    }
    for (const [file, integrity] of manifestIntegrity(manifest)) {
      integrityByUrl.set(manifestFileUrl(publicPath, file), integrity);
    }
    if (requireIntegrity && !integrityByUrl.has(entryUrl)) {
      throw new RemoteRefusedError(entryUrl, `${manifestUrl} gives no integrity for it`);
    }
    return publicPath;
  }

  /** The integrity a script must match; throws for one not to load at all. */
  function scriptIntegrity(url: string): string | undefined {
    checkOrigin(url);
    const integrity = integrityByUrl.get(url);
    if (!integrity && requireIntegrity) {
      throw new RemoteRefusedError(url, 'no manifest read gives its integrity');
    }
    return integrity;
  }

  /** Whether the page has fetched `url` or is fetching it: a preload or script for it, or its resource timing. */
  function fetchedBefore(url: string): boolean {
    // A script the remote's runtime added is removed once it has run; its timing entry stays.
    if (typeof performance.getEntriesByName === 'function' && performance.getEntriesByName(url).length > 0) return true;
    for (const element of document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[href], script[src]')) {
      if (('href' in element ? element.href : element.src) === url) return true;
    }
    return false;
  }

  /**
   * A script preload as the remote's runtime will ask for the script (`crossorigin`, the
   * manifest's digest), or the browser would not use it. Never for a script the page has fetched
   * already (a copy of `shared` the remote loaded for an earlier page: it is in the same chunk);
   * none without a digest.
   */
  function preloadScript(url: string): void {
    const integrity = integrityByUrl.get(url);
    if (!integrity || !isAllowedRemoteUrl(url, allowedOrigins) || fetchedBefore(url)) return;
    const link = document.createElement('link');
    link.rel = 'preload';
    link.setAttribute('as', 'script');
    link.setAttribute('crossorigin', 'anonymous');
    link.setAttribute('integrity', integrity);
    link.href = url;
    document.head.appendChild(link);
  }

  async function download(url: string, init: RequestInit): Promise<ManifestAnswer> {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    const { status, statusText, headers } = response;
    return { status, statusText, headers, text: await response.text() };
  }

  return {
    name: 'p-loading-plugin',

    async fetch(url, init, remoteInfo) {
      checkOrigin(absolute(url));
      const response = manifestReads?.take(absolute(url)) ?? (await download(url, init));
      const { text } = response;
      let manifest: unknown;
      try {
        manifest = JSON.parse(text);
      } catch {
        manifest = undefined; // the runtime reports a manifest that is not JSON itself
      }
      const publicPath = manifest === undefined ? undefined : acceptManifest(absolute(url), manifest);
      if (publicPath !== undefined) {
        // The runtime names the remote whose manifest it fetches.
        if (remoteInfo?.name) manifests.set(remoteInfo.name, { manifest, publicPath });
        builds?.record(remoteInfo?.name ?? '', publicPath, manifest, integrityByUrl);
      }
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },

    // The runtime is about to preload a page (`gifts/GamePage`), its manifest in hand: the copies
    // of shared modules it lacks go with the page's own files, as the host's server preloads them.
    handlePreloadModule({ id, name, origin }) {
      const read = manifests.get(name);
      const module = id.slice(name.length + 1);
      if (!read || !module || typeof document === 'undefined') return;
      const held = sharedOnPage(origin.shareScopeMap as ShareScopes);
      for (const file of sharedFallbackScripts(read.manifest, module, held)) {
        preloadScript(manifestFileUrl(read.publicPath, file));
      }
    },

    createScript({ url, attrs }) {
      const href = absolute(url);
      const integrity = scriptIntegrity(href);
      const script = document.createElement('script');
      for (const [name, value] of Object.entries(attrs ?? {})) {
        if (name === 'async' || name === 'defer') script[name] = Boolean(value);
        else if (typeof value === 'string') script.setAttribute(name, value);
      }
      script.setAttribute('crossorigin', 'anonymous');
      if (integrity) script.setAttribute('integrity', integrity);
      script.src = href;
      return { script, timeout: timeoutMs };
    },

    createLink({ url, attrs }) {
      const href = absolute(url);
      const isScript = attrs?.as === 'script' || attrs?.rel === 'modulepreload';
      let integrity: string | undefined;
      if (isScript) {
        integrity = scriptIntegrity(href);
      } else {
        checkOrigin(href);
        integrity = integrityByUrl.get(href);
      }
      const link = document.createElement('link');
      for (const [name, value] of Object.entries(attrs ?? {})) {
        if (typeof value === 'string') link.setAttribute(name, value);
      }
      link.setAttribute('crossorigin', 'anonymous');
      if (integrity) link.setAttribute('integrity', integrity);
      link.href = href;
      return { link, timeout: timeoutMs };
    },
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
