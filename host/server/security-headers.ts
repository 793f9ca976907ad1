/**
 * The security headers of the host's responses (docs/decisions/0020-security-headers.md).
 * `securityHeaders` gives the whole set for a runtime configuration: the host's server sends it,
 * and a server in front of the host (nginx) is generated from it or checked against it.
 *
 * The Content-Security-Policy lets scripts run only from the page's own origin, the remotes'
 * origins and, when the configuration switches them on, the third parties' loaders: no inline
 * script and no eval. The page's `<script type="application/json">` elements are data blocks,
 * which a browser never runs, so they need no nonce or hash. Browsers report what it blocks to
 * the API (`report-to`, `report-uri`), which counts it for the operators, unless telemetry is off.
 */
import { allowedRemoteOrigins, type RuntimeConfig, telemetryEnabled } from 'shared/runtime-config';
import { CSP_REPORTS_PATH } from 'shared/telemetry';
import {
  CRISP_SCRIPT_URL,
  DEFAULT_GTAG_SCRIPT_URL,
  MIXPANEL_DEFAULT_API_HOST,
} from '../src/third-party/third-party-addresses';

export interface SecurityHeaderOptions {
  /** A page (HTML): the whole set. Anything else (files, `/config.json`, plain-text errors): the headers every response carries. */
  page: boolean;
  /** The request reached the site over HTTPS (its own connection, or as a trusted proxy says): HSTS. */
  https: boolean;
}

/** A year; no `includeSubDomains` or `preload`: the domain's other hosts are the operator's to decide. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** Other sites learn the site's origin, never a page's address, whose path may be a gift's or redeem's secret id. */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/**
 * Browser features the app uses: copying (Copy link, Copy code, for the page itself). Every other
 * powerful feature the browsers know is denied, to the page and to any frame in it. Left at their
 * defaults: the share sheet (Share), whose default is the page itself and whose name Chromium on
 * Linux, without a share sheet, does not know (it would warn on every page); autoplay, which
 * Crisp's chat may use for its message sound.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'browsing-topics=()',
  'camera=()',
  'clipboard-read=()',
  'clipboard-write=(self)',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=()',
  'gamepad=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'identity-credentials-get=()',
  'idle-detection=()',
  'local-fonts=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'otp-credentials=()',
  'payment=()',
  'picture-in-picture=()',
  'publickey-credentials-create=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'storage-access=()',
  'usb=()',
  'window-management=()',
  'xr-spatial-tracking=()',
].join(', ');

/** The reporting endpoint a page's policy reports to (`report-to`), named by its `Reporting-Endpoints` header. */
export const CSP_REPORT_GROUP = 'csp';

/**
 * Where browsers send a page's policy violations: the API's CSP reports route, at the address the
 * page reaches the API at. Percent-encoded where a character would end the directive (`;`), the
 * policy (`,`) or the header's quoted string (`"`).
 */
export function cspReportUrl(config: RuntimeConfig): string {
  const url = new URL(`${config.apiBaseUrl.replace(/\/+$/, '')}${CSP_REPORTS_PATH}`).href;
  return url.replace(/[;,"]/g, (character) => encodeURIComponent(character));
}

function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The folder a URL is in (`https://host/gtag/js?id=x` → `https://host/gtag/`): a CSP source for the scripts there. */
function folderOf(url: string): string | undefined {
  try {
    const folder = new URL('.', url);
    return folder.origin === 'null' ? undefined : folder.href;
  } catch {
    return undefined;
  }
}

function unique(values: ReadonlyArray<string | undefined>): string[] {
  return [...new Set(values.filter((value): value is string => value !== undefined))];
}

/**
 * Google's tag (GA4 through gtag.js): its loader, and where hits go (requests and image beacons),
 * as Google's CSP guide lists them. Scripts are allowed from the loader's own folder only
 * (`https://www.googletagmanager.com/gtag/`), not any host of the domain: Google's guide allows
 * `*.googletagmanager.com`, which would let any script Google serves there, such as another
 * site's container, run on our pages. Neither a nonce nor a hash fits: a page is rendered once
 * and sent to many visitors (a nonce would be the same for all of them, so it would stop nothing),
 * and Google changes the loader's bytes without notice (a hash would block it). A custom loader
 * URL replaces the loader's folder; the hits still go to Google. Google signals would need
 * Google's advertising domains too: consent mode keeps advertising storage denied, so they are
 * not allowed.
 */
const GOOGLE_TAG = {
  img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
  connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
};

/**
 * Crisp's chatbox, from Crisp's list of domains for strict CSPs: its client (scripts, styles,
 * fonts, images, sounds, settings, workers), the messaging WebSocket and its rescue fallback,
 * avatars and files. Crisp's own requirements: inline styles (its colours, see `style-src`),
 * `blob:` workers (fetched from Crisp, run from a blob URL) and `data:` images. The optional
 * features (calls, MagicBrowse, the wait game's frame) are not allowed. A custom loader URL
 * replaces only the loader's origin: the chatbox still talks to Crisp.
 */
const CRISP_CLIENT = 'https://client.crisp.chat';
const CRISP = {
  img: [CRISP_CLIENT, 'https://image.crisp.chat', 'https://storage.crisp.chat'],
  connect: [
    CRISP_CLIENT,
    'https://storage.crisp.chat',
    'wss://client.relay.crisp.chat',
    'wss://client.relay.rescue.crisp.chat',
  ],
  worker: ['blob:', CRISP_CLIENT],
};

type Directive =
  | 'default-src'
  | 'script-src'
  | 'style-src'
  | 'img-src'
  | 'font-src'
  | 'connect-src'
  | 'media-src'
  | 'worker-src'
  | 'frame-src'
  | 'object-src'
  | 'base-uri'
  | 'form-action'
  | 'frame-ancestors';

/**
 * The policy for a configuration. Everything starts from `default-src 'none'`; each directive
 * allows what the app, its remotes and the configured third parties need, and nothing when none
 * of them does.
 */
export function contentSecurityPolicy(config: RuntimeConfig): string {
  // `remoteOrigins` when configured, else the origins of the remote URLs: the same list the host
  // checks every remote script's URL against.
  const remotes = allowedRemoteOrigins(config);
  const policy: Record<Directive, string[]> = {
    'default-src': ["'none'"],
    // The host's scripts, and each remote's entry and chunks (the federation runtime adds them as
    // script elements). No 'unsafe-inline', no 'unsafe-eval'.
    'script-src': ["'self'", ...remotes],
    // style-loader injects every part's stylesheets as <style> elements at run time, the server
    // inlines the prerendered pages' styles, and Crisp needs inline styles: see the decision.
    'style-src': ["'self'", "'unsafe-inline'"],
    // The page's icon is a data: URL.
    'img-src': ["'self'", 'data:'],
    'font-src': [],
    // The host's own build files, the API, the remotes' manifests, builds and payloads.
    'connect-src': unique(["'self'", originOf(config.apiBaseUrl), ...remotes]),
    'media-src': [],
    'worker-src': [],
    'frame-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    // The app's forms are handled by script; a form that ever posted would post to the site.
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  const add = (directive: Directive, ...sources: Array<string | undefined>) => {
    policy[directive] = unique([...policy[directive], ...sources]);
  };

  if (config.analytics) {
    // Mixpanel's library is a chunk of the host's; it only sends requests (and beacons).
    add('connect-src', originOf(config.analytics.apiHost ?? MIXPANEL_DEFAULT_API_HOST));
  }
  if (config.tagManager) {
    const loaderUrl = config.tagManager.scriptUrl ?? DEFAULT_GTAG_SCRIPT_URL;
    const loader = config.tagManager.scriptUrl ? originOf(loaderUrl) : undefined;
    add('script-src', folderOf(loaderUrl));
    add('img-src', ...GOOGLE_TAG.img, config.tagManager.scriptUrl ? loader : undefined);
    add('connect-src', ...GOOGLE_TAG.connect, config.tagManager.scriptUrl ? loader : undefined);
  }
  if (config.icons) {
    // Icons that are not bundled come as JSON from the icon service and are drawn inline.
    add('connect-src', originOf(config.icons.serviceUrl));
  }
  if (config.chat) {
    add('script-src', originOf(config.chat.scriptUrl ?? CRISP_SCRIPT_URL));
    add('style-src', CRISP_CLIENT);
    add('img-src', ...CRISP.img);
    add('font-src', CRISP_CLIENT);
    add('connect-src', ...CRISP.connect);
    add('media-src', CRISP_CLIENT);
    add('worker-src', ...CRISP.worker);
  }

  const directives = Object.entries(policy)
    .filter(([, sources]) => sources.length > 0)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`);
  // Violations are reported to the API: through the Reporting API (report-to, where the browser
  // has it, which then ignores report-uri) or as a plain POST (report-uri, for the others). Not
  // with telemetry switched off: the operator wants nothing sent about the visitors' pages.
  if (telemetryEnabled(config)) directives.push(`report-uri ${cspReportUrl(config)}`, `report-to ${CSP_REPORT_GROUP}`);
  return directives.join('; ');
}

/**
 * Every security header of a host response, by name. Pages get the whole set; every other
 * response gets what applies to any content (no MIME sniffing, the referrer rule, HSTS).
 */
export function securityHeaders(config: RuntimeConfig, { page, https }: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': REFERRER_POLICY,
    ...(https ? { 'Strict-Transport-Security': STRICT_TRANSPORT_SECURITY } : {}),
  };
  if (!page) return headers;
  return {
    ...headers,
    'Content-Security-Policy': contentSecurityPolicy(config),
    // A page opened from another site shares no browsing context group with it: no window.opener.
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    // The endpoint the policy's report-to names.
    ...(telemetryEnabled(config) ? { 'Reporting-Endpoints': `${CSP_REPORT_GROUP}="${cspReportUrl(config)}"` } : {}),
    // frame-ancestors for the browsers that predate it.
    'X-Frame-Options': 'DENY',
  };
}
