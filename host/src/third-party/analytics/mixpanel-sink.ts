/** Mixpanel behind the analytics facade, its own chunk, loaded on consent; a failure leaves the page alone. */
import type { Config, Mixpanel } from 'mixpanel-browser';
import type { AnalyticsHit, AnalyticsSink } from 'shared/browser/analytics';
import type { AnalyticsConfig } from 'shared/runtime-config';

export type MixpanelLibrary = Pick<
  Mixpanel,
  'init' | 'track' | 'has_opted_out_tracking' | 'opt_out_tracking' | 'clear_opt_in_out_tracking'
>;

/** They carry the page address (so a gift or redeem id) or the referrer. */
const URL_PROPERTIES = [
  '$current_url',
  'current_url_path',
  'current_url_search',
  '$referrer',
  '$initial_referrer',
  '$referring_domain',
  '$initial_referring_domain',
];

/** README: "Third parties". */
export const MIXPANEL_SETTINGS = {
  cookie_expiration: 365,
  batch_requests: true,
  batch_size: 50,
  batch_flush_interval_ms: 5_000,
  batch_request_timeout_ms: 90_000,
  track_links_timeout: 300,
  record_idle_timeout_ms: 30 * 60 * 1000,
  record_sessions_percent: 0,
  // Page views come from the host's router, with the route pattern instead of the address.
  track_pageview: false,
  ip: false,
  property_blacklist: URL_PROPERTIES,
  // Not even stored: the referrer may be this site's own address with an id in it.
  save_referrer: false,
  // The cookie stays on this host, not on every subdomain of the site.
  cross_subdomain_cookie: false,
  error_reporter: (message: string, error?: Error) => console.warn('[analytics] Mixpanel:', message, error),
} satisfies Partial<Config>;

export function mixpanelSettings(config: AnalyticsConfig): Partial<Config> {
  // The library joins host and route with a slash of its own.
  return config.apiHost
    ? { ...MIXPANEL_SETTINGS, api_host: config.apiHost.replace(/\/+$/, '') }
    : { ...MIXPANEL_SETTINGS };
}

/** Without the session recorder: recording is sampled at 0 %. */
export async function importMixpanel(): Promise<MixpanelLibrary> {
  const module = await import(
    /* webpackChunkName: "mixpanel" */ 'mixpanel-browser/dist/mixpanel-with-async-modules.cjs.js'
  );
  return module.default;
}

export const PAGE_VIEW_EVENT = 'Page Viewed';

function send(mixpanel: MixpanelLibrary, hit: AnalyticsHit): void {
  // `time` (seconds) dates a hit that waited for consent from when it happened.
  const time = hit.at / 1000;
  if (hit.type === 'page') mixpanel.track(PAGE_VIEW_EVENT, { route: hit.view.route, time });
  else mixpanel.track(hit.event.name, { ...hit.event.properties, time });
}

export interface MixpanelConnection {
  sink: AnalyticsSink;
  optIn(): void;
  optOut(): void;
}

export async function connectMixpanel(
  config: AnalyticsConfig,
  load: () => Promise<MixpanelLibrary> = importMixpanel,
): Promise<MixpanelConnection | undefined> {
  try {
    const mixpanel = await load();
    mixpanel.init(config.mixpanelToken, mixpanelSettings(config));
    const connection: MixpanelConnection = {
      sink: (hit) => send(mixpanel, hit),
      optIn: () => {
        if (mixpanel.has_opted_out_tracking()) mixpanel.clear_opt_in_out_tracking();
      },
      optOut: () => mixpanel.opt_out_tracking(),
    };
    connection.optIn();
    return connection;
  } catch (error) {
    console.warn('[analytics] Mixpanel could not start; analytics stay off', error);
    return undefined;
  }
}
