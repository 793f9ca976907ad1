/** What the host's server knows of a remote's build, and of its deployment, to start its pages. */
import type { CompositionRefusal } from 'shared/composition';
import type { DeploymentState } from 'shared/deployment';
import type { PublishedRoute } from 'shared/published-routes';
import type { RemoteRender } from './remote-renderers';

export interface ExposeFiles {
  scripts: string[];
  /**
   * The remote's copies of shared modules the host's page does not provide (shared/remote-manifest):
   * the runtime asks for them only once the remote's entry has run.
   */
  sharedScripts: string[];
}

export interface PrerenderedMarkup {
  /** The build that rendered it: the browser uses the data only with that build's code. */
  buildId: string;
  /** Sanitised (prerendered-html.ts). */
  html: string;
  /** TanStack's dehydrated state, read by the page's first render. */
  state: unknown;
}

/** A remote's published routes as read from one of its manifests. */
export interface PublishedRoutes {
  routes: readonly PublishedRoute[];
  refusals: readonly CompositionRefusal[];
}

export interface RemoteSnapshot {
  buildId: string;
  manifestUrl: string;
  remoteEntry: string;
  exposes: ReadonlyMap<string, ExposeFiles>;
  /** Per script URL: a preload must carry the integrity the browser loads the script with, or it is unused. */
  integrity: ReadonlyMap<string, string>;
  prerendered: ReadonlyMap<string, PrerenderedMarkup>;
  /** The styles the remote's scripts would otherwise inject. */
  prerenderCss?: string;
  /** Its accepted routes and why the others were refused (remote-manifest-reading.ts's publishedRoutesIn). */
  published?: PublishedRoutes;
  /** Its checked render bundle for data pages (remote-renderers.ts); none: those render in the browser. */
  renderer?: { render: RemoteRender; css: string };
}

/** A remote's deployment as last read, with the builds visitors get from it. */
export interface RemoteDeployment {
  /** A canary whose copy could not be read is left out: stable for all. */
  state: DeploymentState;
  /** By build id: the stable build (the root) and the canary (its copy). */
  builds: ReadonlyMap<string, RemoteSnapshot>;
  /** The named builds whose copy was there when named: a page may fall back only to one of these. */
  copies: ReadonlySet<string>;
  /** When it last changed (changedAtOf), for shared/deployment's isUnsettled. */
  changedAt?: number;
}

/** The most a remote's file of each kind may weigh: a larger answer is refused, never read whole. */
export const REMOTE_FILE_LIMITS = {
  /** As the API reads it. */
  manifest: 512 * 1024,
  /** `prerender/{Module}.json`: markup and query cache. */
  prerendered: 1024 * 1024,
  /** `prerender/pages.css` and the render bundle's styles. */
  styles: 1024 * 1024,
  renderScript: 16 * 1024 * 1024,
} as const;
