/**
 * Renders this remote's data pages (the registry's routes marked `serverData`: the redeem page)
 * on the host's server, per request, with the session the host's server has read from the API
 * for the visitor. Bundled whole by `build/prerender-plugin.ts` as `prerender/render.js`
 * (docs/decisions/0028-data-pages-rendered-by-the-host-server.md); the real exposed component
 * renders, so there is one markup, not two.
 */
import { createDataPageRenderer } from '../../build/render-remote-page';
import RedeemPage from '../src/exposed/redeem-page';

export const render = createDataPageRenderer({ remote: 'redeem', pages: { RedeemPage } });
