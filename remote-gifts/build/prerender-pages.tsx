/**
 * Renders this remote's prerendered pages (the registry's routes marked `prerendered`: the game,
 * whose first view needs no data) to the markup the browser's first render of the same page
 * shows. Run at build time by `build/prerender-plugin.ts`; the host's server puts the markup
 * into the HTML it sends (docs/decisions/0015-host-server-starts-the-page.md).
 */
import type { ComponentType } from 'react';
import type { PrerenderedPage } from '../../build/prerender-plugin';
import { prerenderRemotePages } from '../../build/prerender-remote-pages';
import GamePage from '../src/exposed/game-page';

/** The exposed pages by module name, as the registry names them. */
const EXPOSED_PAGES: Record<string, ComponentType> = { GamePage };

export function prerenderPages(): PrerenderedPage[] {
  return prerenderRemotePages({ remote: 'gifts', pages: EXPOSED_PAGES });
}
