/** This remote's prerendered pages, rendered at build time for the host's server to send. */
import type { PrerenderedPage } from '../../build/prerender-plugin';
import { prerenderRemotePages } from '../../build/prerender-remote-pages';
import { REMOTE_NAME, REMOTE_SPEC } from '../remote-spec';
import __Page__ from '../src/exposed/__page__';

export function prerenderPages(): PrerenderedPage[] {
  return prerenderRemotePages({ remote: REMOTE_NAME, spec: REMOTE_SPEC, pages: { __Page__ } });
}
