/**
 * Renders this remote's prerendered pages (its spec's routes marked `prerendered`) to the markup
 * the browser's first render of the same page shows. Run at build time by the repository's
 * `build/prerender-plugin.ts`; the host's server puts the markup into the HTML it sends, so the
 * page is on screen before any script runs.
 */
import type { PrerenderedPage } from '../../build/prerender-plugin';
import { prerenderRemotePages } from '../../build/prerender-remote-pages';
import { REMOTE_NAME, REMOTE_SPEC } from '../remote-spec';
import __Page__ from '../src/exposed/__page__';

export function prerenderPages(): PrerenderedPage[] {
  return prerenderRemotePages({ remote: REMOTE_NAME, spec: REMOTE_SPEC, pages: { __Page__ } });
}
