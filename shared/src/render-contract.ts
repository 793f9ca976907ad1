/**
 * The contract between a remote's render bundle and the host's server that runs it
 * (docs/decisions/0028-data-pages-rendered-by-the-host-server.md): the remote's build publishes
 * `prerender/render.js`, exporting `render`, and `prerender/render.css`; the host's server reads
 * the page's data from the API, calls `render` with it, and puts the markup and the query cache
 * into the page it sends. Both sides import these types, so neither can drift from the other.
 */
import type { QueryKey } from '@tanstack/react-query';

/** The render bundle and its styles in a remote's build, beside its prerendered pages. */
export const RENDER_SCRIPT = 'prerender/render.js';
export const RENDER_STYLES = 'prerender/render.css';

/** One query's answer, as the host's server read it from the API. */
export interface RenderQuery {
  queryKey: QueryKey;
  data: unknown;
}

export interface RenderRequest {
  /** The exposed module, such as `GiftPage`. */
  module: string;
  /** The page's path, such as `/gifts/abc`: the page reads its parameters from it. */
  pathname: string;
  queries: readonly RenderQuery[];
}

export interface RenderedDataPage {
  /** The page's markup, not yet sanitised. */
  html: string;
  /**
   * The query cache the markup was rendered from (TanStack's dehydrated state): the browser's
   * first render reads it. Unknown to the host's server, which only passes it on.
   */
  state: unknown;
}

/** What `prerender/render.js` exports as `render`. */
export type RenderDataPage = (request: RenderRequest) => RenderedDataPage;
