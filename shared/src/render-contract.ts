/** See docs/decisions/0028-data-pages-rendered-by-the-host-server.md. */
import type { QueryKey } from '@tanstack/react-query';

export const RENDER_SCRIPT = 'prerender/render.js';
export const RENDER_STYLES = 'prerender/render.css';

export interface RenderQuery {
  queryKey: QueryKey;
  data: unknown;
}

export interface RenderRequest {
  module: string;
  pathname: string;
  queries: readonly RenderQuery[];
}

export interface RenderedDataPage {
  html: string;
  /** TanStack's dehydrated state, passed on unread by the host's server. */
  state: unknown;
}

export type RenderDataPage = (request: RenderRequest) => RenderedDataPage;
