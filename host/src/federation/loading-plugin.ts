/**
 * What the federation runtime downloads, checked before any of it runs (docs/decisions/0019,
 * 0016). A refusal fails like a network error, so retries and the reload guard follow.
 */
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { manifestFileUrl, sharedFallbackScripts } from 'shared/remote-manifest';
import type { BuildAttribution } from '../telemetry/build-attribution';
import { AcceptedManifests } from './accepted-manifests';
import type { ManifestAnswer, ManifestReads } from './manifest-reads';
import { attributedBuild, type BuildsConfig } from './remote-build-id';

export { RemoteRefusedError } from './accepted-manifests';

export interface LoadingPluginOptions {
  timeoutMs: number;
  allowedOrigins: readonly string[];
  /** Off in development: remotes under `webpack serve` record none. */
  requireIntegrity: boolean;
  builds?: Pick<BuildAttribution, 'record'>;
  config?: BuildsConfig;
  manifestReads?: Pick<ManifestReads, 'take'>;
}

type ShareScopes = Record<string, Record<string, Record<string, { lib?: unknown; loaded?: boolean }>>>;

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

const absolute = (url: string) => new URL(url, typeof document === 'undefined' ? undefined : document.baseURI).href;

/** A script the remote's runtime added is removed once it has run; its timing entry stays. */
function fetchedBefore(url: string): boolean {
  if (typeof performance.getEntriesByName === 'function' && performance.getEntriesByName(url).length > 0) return true;
  for (const element of document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[href], script[src]')) {
    if (('href' in element ? element.href : element.src) === url) return true;
  }
  return false;
}

/** As the remote's runtime will ask for the script, or the browser would not use it. */
function preloadScript(url: string, manifests: AcceptedManifests): void {
  const integrity = manifests.integrityByUrl.get(url);
  if (!integrity || !manifests.isAllowed(url) || fetchedBefore(url)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.setAttribute('as', 'script');
  link.setAttribute('crossorigin', 'anonymous');
  link.setAttribute('integrity', integrity);
  link.href = url;
  document.head.appendChild(link);
}

/** Non-2xx fails here with its status, not later as a JSON parse error. */
async function download(url: string, init: RequestInit, timeoutMs: number): Promise<ManifestAnswer> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const { status, statusText, headers } = response;
  return { status, statusText, headers, text: await response.text() };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // the runtime reports a manifest that is not JSON itself
  }
}

function withAttributes<E extends HTMLElement>(
  element: E,
  attrs: Record<string, unknown> | undefined,
  integrity?: string,
): E {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (element instanceof HTMLScriptElement && (name === 'async' || name === 'defer')) element[name] = Boolean(value);
    else if (typeof value === 'string') element.setAttribute(name, value);
  }
  element.setAttribute('crossorigin', 'anonymous');
  if (integrity) element.setAttribute('integrity', integrity);
  return element;
}

export function loadingPlugin(options: LoadingPluginOptions): ModuleFederationRuntimePlugin {
  const { timeoutMs, builds, config, manifestReads } = options;
  const manifests = new AcceptedManifests(options.allowedOrigins, options.requireIntegrity);
  return {
    name: 'p-loading-plugin',

    async fetch(url, init, remoteInfo) {
      const manifestUrl = absolute(url);
      manifests.checkOrigin(manifestUrl);
      const response = manifestReads?.take(manifestUrl) ?? (await download(url, init, timeoutMs));
      const manifest = parseJson(response.text);
      const remote = remoteInfo?.name;
      const publicPath = manifest === undefined ? undefined : manifests.accept(manifestUrl, manifest, remote);
      if (publicPath !== undefined) {
        const build = attributedBuild(config, remote ?? '', manifestUrl, manifest);
        builds?.record(remote ?? '', publicPath, build, manifests.integrityByUrl);
      }
      const { status, statusText, headers } = response;
      return new Response(response.text, { status, statusText, headers });
    },

    // The runtime is about to preload a page (`gifts/GamePage`), its manifest in hand: the copies
    // of shared modules it lacks go with the page's own files, as the host's server preloads them.
    handlePreloadModule({ id, name, origin }) {
      const read = manifests.manifestOf(name);
      const module = id.slice(name.length + 1);
      if (!read || !module || typeof document === 'undefined') return;
      const held = sharedOnPage(origin.shareScopeMap as ShareScopes);
      for (const file of sharedFallbackScripts(read.manifest, module, held)) {
        preloadScript(manifestFileUrl(read.publicPath, file), manifests);
      }
    },

    createScript({ url, attrs }) {
      const href = absolute(url);
      const script = withAttributes(document.createElement('script'), attrs, manifests.scriptIntegrity(href));
      script.src = href;
      return { script, timeout: timeoutMs };
    },

    createLink({ url, attrs }) {
      const href = absolute(url);
      const isScript = attrs?.as === 'script' || attrs?.rel === 'modulepreload';
      if (!isScript) manifests.checkOrigin(href);
      const integrity = isScript ? manifests.scriptIntegrity(href) : manifests.integrityByUrl.get(href);
      const link = withAttributes(document.createElement('link'), attrs, integrity);
      link.href = href;
      return { link, timeout: timeoutMs };
    },
  };
}
