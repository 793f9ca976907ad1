/**
 * Where each third party is reached when the runtime configuration names no other address. The
 * app loads and calls them; the host's server allows their origins in the pages'
 * Content-Security-Policy (server/security-headers.ts), so both read them from here.
 */

/** Google's tag loader, `tagManager.scriptUrl`'s default. */
export const DEFAULT_GTAG_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';

/** Crisp's loader, `chat.scriptUrl`'s default (crisp-sdk-web's own). */
export const CRISP_SCRIPT_URL = 'https://client.crisp.chat/l.js';

/** Where mixpanel-browser sends events unless `analytics.apiHost` says otherwise: its default `api_host`. */
export const MIXPANEL_DEFAULT_API_HOST = 'https://api-js.mixpanel.com';
