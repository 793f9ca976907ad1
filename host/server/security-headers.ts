/**
 * The security headers of the host's responses, for the host's server and for nginx's
 * configuration generated or checked from them (docs/decisions/0020-security-headers.md).
 */
import { allowedRemoteOrigins, type RuntimeConfig, telemetryEnabled } from 'shared/runtime-config';
import { CSP_REPORTS_PATH } from 'shared/telemetry';
import {
  CRISP_SCRIPT_URL,
  DEFAULT_GTAG_SCRIPT_URL,
  MIXPANEL_DEFAULT_API_HOST,
} from '../src/third-party/third-party-addresses';

export interface SecurityHeaderOptions {
  page: boolean;
  https: boolean;
}

/** No `includeSubDomains`: the domain's other hosts are the operator's to decide. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** A page's path may hold a gift's secret id: other sites learn only the origin. */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** Copying only; `web-share` (unknown to Chromium on Linux) and autoplay (Crisp's sound) keep their defaults. */
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

export const CSP_REPORT_GROUP = 'csp';

/** Encoded where a character would end the directive, the policy or a quoted string. */
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

/** Where gtag.js's hits go; its scripts only from the loader's folder (decision 0020). */
const GOOGLE_TAG = {
  img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
  connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
};

/** Crisp's list of domains for strict CSPs, without its optional features (decision 0020). */
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

/** From `default-src 'none'`, each directive allows what the app, its remotes and the configured third parties need. */
export function contentSecurityPolicy(config: RuntimeConfig): string {
  const remotes = allowedRemoteOrigins(config);
  const policy: Record<Directive, string[]> = {
    'default-src': ["'none'"],
    'script-src': ["'self'", ...remotes],
    // Injected and inlined stylesheets, and Crisp's: see the decision.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'font-src': [],
    'connect-src': unique(["'self'", originOf(config.apiBaseUrl), ...remotes]),
    'media-src': [],
    'worker-src': [],
    'frame-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  const add = (directive: Directive, ...sources: Array<string | undefined>) => {
    policy[directive] = unique([...policy[directive], ...sources]);
  };

  if (config.analytics) {
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
  // report-uri for browsers without the Reporting API; nothing at all with telemetry off.
  if (telemetryEnabled(config)) directives.push(`report-uri ${cspReportUrl(config)}`, `report-to ${CSP_REPORT_GROUP}`);
  return directives.join('; ');
}

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
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    ...(telemetryEnabled(config) ? { 'Reporting-Endpoints': `${CSP_REPORT_GROUP}="${cspReportUrl(config)}"` } : {}),
    // frame-ancestors for the browsers that predate it.
    'X-Frame-Options': 'DENY',
  };
}
