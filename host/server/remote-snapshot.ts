import type { CompositionRefusal } from 'shared/composition';
import type { DeploymentState } from 'shared/deployment';
import type { PublishedRoute } from 'shared/published-routes';
import type { RemoteRender } from './remote-renderers';

export interface ExposeFiles {
  scripts: string[];
  /** Shared modules the host does not provide. */
  sharedScripts: string[];
}

export interface PrerenderedMarkup {
  buildId: string;
  html: string;
  state: unknown;
}

export interface PublishedRoutes {
  routes: readonly PublishedRoute[];
  refusals: readonly CompositionRefusal[];
}

export interface RemoteSnapshot {
  buildId: string;
  manifestUrl: string;
  remoteEntry: string;
  exposes: ReadonlyMap<string, ExposeFiles>;
  /** A preload without it goes unused. */
  integrity: ReadonlyMap<string, string>;
  prerendered: ReadonlyMap<string, PrerenderedMarkup>;
  prerenderCss?: string;
  published?: PublishedRoutes;
  renderer?: { render: RemoteRender; css: string };
}

export interface RemoteDeployment {
  state: DeploymentState;
  builds: ReadonlyMap<string, RemoteSnapshot>;
  /** Fallbacks whose copy was there. */
  copies: ReadonlySet<string>;
  changedAt?: number;
}

export const REMOTE_FILE_LIMITS = {
  manifest: 512 * 1024,
  prerendered: 1024 * 1024,
  styles: 1024 * 1024,
  renderScript: 16 * 1024 * 1024,
} as const;
