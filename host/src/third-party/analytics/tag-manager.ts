/**
 * Google's tag (gtag.js) in consent mode: every storage is denied by default, before the tag
 * does anything, and analytics storage is granted only when the visitor accepts. The page
 * address sent is the route pattern, as for Mixpanel: gift and redeem links are bearer links.
 */
import type { TagManagerConfig } from 'shared/runtime-config';
import { DEFAULT_GTAG_SCRIPT_URL } from '../third-party-addresses';

export { DEFAULT_GTAG_SCRIPT_URL };

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

export const CONSENT_DEFAULT = {
  analytics_storage: 'denied',
  ad_storage: 'denied',
  ad_user_data: 'denied',
  ad_personalization: 'denied',
} as const;

export const CONSENT_GRANTED = { analytics_storage: 'granted' } as const;
export const CONSENT_DENIED = { analytics_storage: 'denied' } as const;

export interface TagManager {
  grant(): void;
  deny(): void;
  pageView(route: string): void;
}

export interface TagManagerOptions {
  /** The stored choice is already "granted". */
  granted: boolean;
  /** The route pattern on screen now. */
  route: string;
  win?: Window;
}

export function gtagScriptUrl(config: TagManagerConfig): string {
  const url = new URL(config.scriptUrl ?? DEFAULT_GTAG_SCRIPT_URL);
  url.searchParams.set('id', config.measurementId);
  return url.toString();
}

/** The address and referrer gtag would read from the page, without the path that may hold an id. */
function pageFields(win: Window, route: string): Record<string, string> {
  const fields: Record<string, string> = { page_location: `${win.location.origin}${route}` };
  try {
    if (win.document.referrer) fields.page_referrer = `${new URL(win.document.referrer).origin}/`;
  } catch {
    // An unreadable referrer is left out.
  }
  return fields;
}

export function startTagManager(
  config: TagManagerConfig,
  { granted, route, win = window }: TagManagerOptions,
): TagManager {
  const dataLayer = (win.dataLayer = win.dataLayer ?? []);
  // gtag.js reads each command as an Arguments object, exactly as Google's snippet pushes it.
  const gtag = function () {
    // eslint-disable-next-line prefer-rest-params
    dataLayer.push(arguments);
  } as (...args: unknown[]) => void;
  win.gtag = gtag;

  gtag('consent', 'default', CONSENT_DEFAULT);
  if (granted) gtag('consent', 'update', CONSENT_GRANTED);
  gtag('js', new Date());
  // For every hit (scrolls, clicks…). Page views come from the router only, one per route,
  // whether the router or the tag started first.
  const fields = pageFields(win, route);
  gtag('set', fields);
  gtag('config', config.measurementId, { ...fields, send_page_view: false });

  const script = win.document.createElement('script');
  script.async = true;
  script.src = gtagScriptUrl(config);
  script.addEventListener('error', () =>
    console.warn(`[tag manager] ${script.src} could not be loaded; tags stay off`),
  );
  win.document.head.appendChild(script);

  return {
    grant: () => gtag('consent', 'update', CONSENT_GRANTED),
    deny: () => gtag('consent', 'update', CONSENT_DENIED),
    pageView(next) {
      const nextFields = pageFields(win, next);
      gtag('set', nextFields);
      gtag('event', 'page_view', nextFields);
    },
  };
}

/**
 * Consent withdrawn: the Google tag's own cookies (`_ga`, `_ga_<container>`) go too, on this
 * host and each parent domain they may have been set on.
 */
export function clearGoogleCookies(doc: Document = document): void {
  const names = doc.cookie
    .split(';')
    .map((cookie) => cookie.split('=')[0]?.trim() ?? '')
    .filter((name) => name === '_ga' || name.startsWith('_ga_') || name === '_gid');
  if (names.length === 0) return;
  const labels = doc.location.hostname.split('.');
  const domains = ['', ...labels.slice(0, -1).map((_label, index) => `; domain=.${labels.slice(index).join('.')}`)];
  for (const name of names) {
    for (const domain of domains) doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/${domain}`;
  }
}
