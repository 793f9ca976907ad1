/** Third parties' default addresses: the app's and the pages' Content-Security-Policy's. */

export const DEFAULT_GTAG_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';

export const CRISP_SCRIPT_URL = 'https://client.crisp.chat/l.js';

export const MIXPANEL_DEFAULT_API_HOST = 'https://api-js.mixpanel.com';
