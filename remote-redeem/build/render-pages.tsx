/**
 * This remote's data pages, rendered per request on the host's server with the real exposed
 * component (docs/decisions/0028-data-pages-rendered-by-the-host-server.md).
 */
import { createDataPageRenderer } from '../../build/render-remote-page';
import RedeemPage from '../src/exposed/redeem-page';

export const render = createDataPageRenderer({ remote: 'redeem', pages: { RedeemPage } });
