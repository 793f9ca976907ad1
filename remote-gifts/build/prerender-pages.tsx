/**
 * This remote's prerendered pages, rendered at build time
 * (docs/decisions/0015-host-server-starts-the-page.md).
 */
import type { ComponentType } from 'react';
import type { PrerenderedPage } from '../../build/prerender-plugin';
import { prerenderRemotePages } from '../../build/prerender-remote-pages';
import GamePage from '../src/exposed/game-page';

const EXPOSED_PAGES: Record<string, ComponentType> = { GamePage };

export function prerenderPages(): PrerenderedPage[] {
  return prerenderRemotePages({ remote: 'gifts', pages: EXPOSED_PAGES });
}
