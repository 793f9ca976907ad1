/**
 * Reads a build of a remote into a snapshot: its manifest, its granted routes' prerendered markup
 * and styles, and its render bundle loaded into the remote's render workers.
 */
import { boundedText } from 'server/bounded-fetch';
import { grantsOf, refusalText } from 'shared/composition';
import { buildManifestUrl } from 'shared/deployment';
import { errorMessage } from 'shared/http-error';
import { RENDER_SCRIPT, RENDER_STYLES } from 'shared/render-contract';
import { isAllowedRemoteUrl, type RuntimeConfig } from 'shared/runtime-config';
import { sanitizePrerenderedHtml } from './prerendered-html';
import { publishedRoutesIn, readManifest } from './remote-manifest-reading';
import { loadRenderer, type RenderPools } from './remote-renderers';
import {
  REMOTE_FILE_LIMITS,
  type PrerenderedMarkup,
  type PublishedRoutes,
  type RemoteSnapshot,
} from './remote-snapshot';

export interface SnapshotReaderOptions {
  fetchImpl: typeof fetch;
  timeoutMs: number;
  hostShared?: ReadonlySet<string>;
  allowedOrigins?: readonly string[];
  renderPools?: RenderPools;
  grants?: Pick<RuntimeConfig, 'routeGrants'>;
  log: (message: string) => void;
  /** For messages whose text comes from the remote: said once each, and boundedly many. */
  logOnce: (message: string) => void;
}

function prerenderedModules({ routes }: PublishedRoutes): string[] {
  return [...new Set(routes.filter((route) => route.prerendered).map((route) => route.module))];
}

function prerenderedMarkup(url: string, body: unknown): PrerenderedMarkup {
  const published = body as { buildId?: unknown; html?: unknown; state?: unknown } | null;
  if (typeof published?.buildId !== 'string' || typeof published.html !== 'string' || !published.state) {
    throw new Error(`${url} is not a prerendered page`);
  }
  return { buildId: published.buildId, html: sanitizePrerenderedHtml(published.html), state: published.state };
}

export class SnapshotReader {
  constructor(private readonly options: SnapshotReaderOptions) {}

  private async get(url: string): Promise<Response> {
    const { fetchImpl, timeoutMs } = this.options;
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), cache: 'no-store' });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    return response;
  }

  private async getText(url: string, maxBytes: number): Promise<string> {
    return boundedText(await this.get(url), url, maxBytes);
  }

  private async getJson(url: string, maxBytes: number): Promise<unknown> {
    return JSON.parse(await this.getText(url, maxBytes)) as unknown;
  }

  /** Only the routes a remote was granted are read ahead or rendered. */
  private granted(remote: string, published: PublishedRoutes): PublishedRoutes {
    if (!this.options.grants) return published;
    const granted = new Set(grantsOf(this.options.grants, remote));
    return { ...published, routes: published.routes.filter((route) => granted.has(route.path)) };
  }

  /**
   * A build's snapshot from the manifest at `manifestUrl` and the files beside it (the root or the
   * build's copy). `kept`: the routes of the stable build read before, which stand when the
   * manifest's routes document is refused whole.
   */
  async read(remote: string, manifestUrl: string, buildId: string, kept?: PublishedRoutes): Promise<RemoteSnapshot> {
    const { hostShared, allowedOrigins, logOnce } = this.options;
    const body = await this.getJson(manifestUrl, REMOTE_FILE_LIMITS.manifest);
    const { remoteEntry, exposes, integrity } = readManifest(manifestUrl, body, hostShared, allowedOrigins);
    const published = publishedRoutesIn(remote, body, kept, (refusal) => logOnce(refusalText(refusal)));
    const granted = this.granted(remote, published);
    const modules = prerenderedModules(granted);
    const prerenderCss =
      modules.length > 0
        ? await this.getText(new URL('prerender/pages.css', manifestUrl).href, REMOTE_FILE_LIMITS.styles)
        : undefined;
    const prerendered = new Map<string, PrerenderedMarkup>();
    for (const module of modules) {
      const url = new URL(`prerender/${module}.json`, manifestUrl).href;
      prerendered.set(module, prerenderedMarkup(url, await this.getJson(url, REMOTE_FILE_LIMITS.prerendered)));
    }
    const hasDataPages = granted.routes.some((route) => route.serverData);
    const renderer = hasDataPages ? await this.readRenderer(remote, manifestUrl, integrity) : undefined;
    return { buildId, manifestUrl, remoteEntry, exposes, integrity, prerendered, prerenderCss, renderer, published };
  }

  /**
   * The remote's render bundle, at an allowed origin, checked against its manifest's digest and
   * loaded into its render workers; a bundle missing or refused leaves the rest of the build in use.
   */
  private async readRenderer(
    remote: string,
    manifestUrl: string,
    integrity: ReadonlyMap<string, string>,
  ): Promise<RemoteSnapshot['renderer']> {
    const pools = this.options.renderPools;
    if (!pools) return undefined;
    const scriptUrl = [...integrity.keys()].find((url) => url.endsWith(`/${RENDER_SCRIPT}`));
    try {
      if (!scriptUrl) throw new Error(`its manifest lists no ${RENDER_SCRIPT}`);
      const cssUrl = new URL(RENDER_STYLES, scriptUrl.slice(0, -RENDER_SCRIPT.length)).href;
      const allowed = this.options.allowedOrigins ?? [new URL(manifestUrl).origin];
      for (const url of [scriptUrl, cssUrl]) {
        if (!isAllowedRemoteUrl(url, allowed)) {
          throw new Error(`it is at ${new URL(url).origin}, which is not an allowed remote origin`);
        }
      }
      const script = await this.getText(scriptUrl, REMOTE_FILE_LIMITS.renderScript);
      const render = await loadRenderer(pools.pool(remote), script, integrity.get(scriptUrl));
      return { render, css: await this.getText(cssUrl, REMOTE_FILE_LIMITS.styles) };
    } catch (error) {
      this.options.log(
        `the ${remote} remote's ${RENDER_SCRIPT} is not used (${errorMessage(error)}); its pages with data are rendered in the browser`,
      );
      return undefined;
    }
  }

  /**
   * Whether a build's copy is there (its manifest answers a HEAD, or a GET where HEAD is not
   * allowed); undefined when the remote did not say (down, 5xx), to be asked again next poll.
   */
  async hasCopy(root: string, id: string): Promise<boolean | undefined> {
    const ask = async (method: string) =>
      this.options.fetchImpl(buildManifestUrl(root, id), {
        method,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        cache: 'no-store',
      });
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
}
